import GatewayHTTP
import WireJSON

extension GatewayError {
    /// The MPGS error body for a request the transport refused before any route saw it.
    package static func answer(for refusal: TransportRefusal) -> RefusalAnswer {
        let error: GatewayError =
            switch refusal {
            case .malformed(let why): .malformedHTTP(why)
            case .codingNotImplemented(let codings): .transferCodingNotImplemented(codings)
            }
        return RefusalAnswer(status: error.status, contentType: "application/json;charset=UTF-8", body: error.body.serialized())
    }
}
