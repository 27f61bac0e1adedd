import Foundation
import GatewayCore
import Hummingbird

extension GatewayRoutes {
    /// INITIATE_AUTHENTICATION and AUTHENTICATE_PAYER: one authentication transaction under the
    /// path's transaction id, kept in the store and answered as MPGS renders it.
    func authenticate(
        _ operation: AuthenticationOperation,
        _ reader: RequestReader,
        _ request: Request,
        _ transaction: PaymentProcessor.Context
    ) async throws -> Response {
        // A transaction id names one transaction on the order: a payment's is not an authentication's.
        if try await processor.store.transaction(
            merchantId: transaction.merchant.id,
            orderId: transaction.orderId,
            transactionId: transaction.transactionId
        ) != nil {
            throw PaymentRejection.transactionIdReused(transaction.transactionId)
        }
        // A session's content reads as if the request had sent it (request over session). The
        // session is not claimed: the payment that follows pays with it.
        var reader = reader
        if let sessionId = reader.text("session.id") {
            let opened = try await paymentSession(sessionId, merchant: transaction.merchant, version: reader.text("session.version"))
            reader = RequestReader(checked: SessionContent.merged(opened.content, reader.root))
        }
        // A token stands for its card here as in a payment, with the same precedence (request,
        // then session, then token). AUTHENTICATE_PAYER authenticates the card initiated; its
        // token is checked all the same, so an unknown one is the same error in every operation.
        if let storedCard = try await resolvingStoredCard(reader, merchant: transaction.merchant) {
            reader = storedCard.reader
        }
        let context = AuthenticationContext(
            merchantId: transaction.merchant.id,
            orderId: transaction.orderId,
            transactionId: transaction.transactionId,
            version: transaction.version
        )
        let authentication: PayerAuthentication
        do {
            switch operation {
            case .initiateAuthentication:
                authentication = try await authentications.initiate(.reading(reader), context)
            case .authenticatePayer:
                authentication = try await authentications.authenticatePayer(.reading(reader), context)
            }
        } catch let rejection as AuthenticationRejection {
            throw rejection.gatewayError
        }
        return Self.json(.created, AuthenticationResponse.json(authentication, acsURL: Self.acsURL(request)))
    }

    /// The sandbox ACS page's address as the payer's browser reaches this gateway: the request's
    /// host, and https when a proxy in front says the request came that way.
    static func acsURL(_ request: Request) -> String {
        browserOrigin(request) + ACSRoutes.challengePath
    }

    /// The gateway's own address as the payer's browser reaches it: the request's host, and
    /// https when a proxy in front says the request came that way.
    package static func browserOrigin(_ request: Request) -> String {
        let scheme = request.headers[.init("X-Forwarded-Proto")!] == "https" ? "https" : "http"
        return "\(scheme)://\(request.head.authority ?? "127.0.0.1")"
    }
}
