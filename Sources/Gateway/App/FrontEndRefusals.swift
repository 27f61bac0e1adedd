import GatewayHTTP
import MPGSAPI
import MerchantConsole
import RadialAPI

/// What each front end answers for a request the transport refused (a malformed head, a transfer
/// coding it does not decode), chosen by the request's path: Radial's XML fault on its paths, the
/// console's page on `/ma/`, and the MPGS error body everywhere else (the API, the hosted pages'
/// scripts, and a connection whose first request line could not be read at all).
enum FrontEndRefusals {
    static let answers = RefusalAnswers { refusal, path in
        guard let path else { return GatewayError.answer(for: refusal) }
        if RadialRoutes.serves(path) { return RadialFault.answer(for: refusal) }
        if ConsoleRoutes.serves(path) { return ConsoleRoutes.answer(for: refusal) }
        return GatewayError.answer(for: refusal)
    }
}
