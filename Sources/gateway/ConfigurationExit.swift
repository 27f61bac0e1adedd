import ArgumentParser
import Foundation
import Gateway
import GatewayConfigurationFile

/// Configuration mistakes are not command-line mistakes: they exit 78 (EX_CONFIG in sysexits.h)
/// with one line naming the key or the file position, and no usage text.
enum ConfigurationExit {
    static let code: Int32 = 78

    static func reporting<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(code)
        } catch let error as StartupFailure {
            // The configuration is fine; something else holds what it names.
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
