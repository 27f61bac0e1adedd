// The core's types are part of what this target offers the command and the tests.
@_exported import GatewayCore
