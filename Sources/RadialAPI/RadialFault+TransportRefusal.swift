import Foundation
import GatewayHTTP

extension RadialFault {
    /// The Radial `Fault` for a request the transport refused before any route saw it: a client
    /// of this API reads XML, whatever went wrong.
    package static func answer(for refusal: TransportRefusal, at time: Date = Date()) -> RefusalAnswer {
        let fault: RadialFault =
            switch refusal {
            case .malformed(let why): RadialFault(.invalidRequest, "the request is not valid HTTP: \(why)")
            case .codingNotImplemented(let codings):
                RadialFault(.invalidRequest, "Transfer-Encoding '\(codings)' is not supported: send the body with Content-Length or chunked")
            }
        return RefusalAnswer(
            status: refusal.status,
            contentType: "application/xml; charset=utf-8",
            body: XMLWriter.document(fault.output(at: time))
        )
    }
}

extension RadialRoutes {
    /// Whether `path` is one of this API's (its requests' faults are XML).
    package static func serves(_ path: String) -> Bool {
        path.hasPrefix("/v1.0/stores/")
    }
}
