import MPGSAPI
import RadialAPI

/// The error reference page, for the `gateway errors` command (Deploy/ERRORS.md): the MPGS API's
/// errors, then the Radial-style API's faults, each section from the code that answers them.
public enum GatewayErrorReference {
    public static var markdown: String { ErrorCatalogue.markdown + RadialFault.referenceMarkdown }
}
