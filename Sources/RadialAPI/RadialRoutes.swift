import ApplePayToken
import Foundation
import GatewayCore
import GatewayHTTP
import Hummingbird
import Logging

/// The Radial-style Payment Service front end: `CreditCardAuth` and `Decrypt` over XML, on the
/// same processor, store and simulator as the MPGS routes. URLs follow the public SDK's
/// `https://{host}/v{major}.{minor}/stores/{storeId}/{service}/{operation}.xml`.
package struct RadialRoutes: Sendable {
    let authentication: RadialAuthentication
    let processor: PaymentProcessor
    let decryptor: ApplePayTokenDecryptor
    /// Merchants whose configuration grants Decrypt (`merchant.<ID>.radial.decrypt`).
    let decryptMerchants: Set<String>
    let maxBodyBytes: Int
    let observer: any RadialObserver
    let clock: @Sendable () -> Date
    let fingerprinter: RequestFingerprinter

    package init(
        authentication: RadialAuthentication,
        processor: PaymentProcessor,
        decryptor: ApplePayTokenDecryptor,
        decryptMerchants: Set<String>,
        maxBodyBytes: Int,
        observer: any RadialObserver,
        clock: @escaping @Sendable () -> Date,
        fingerprinter: RequestFingerprinter
    ) {
        self.authentication = authentication
        self.processor = processor
        self.decryptor = decryptor
        self.decryptMerchants = decryptMerchants
        self.maxBodyBytes = maxBodyBytes
        self.observer = observer
        self.clock = clock
        self.fingerprinter = fingerprinter
    }

    static let base = "/v1.0/stores/:storeId/payments"
    static let creditCardAuthPath = "\(base)/creditcard/auth.xml"
    static let decryptPath = "\(base)/applepay/decrypt.xml"

    package func register(on router: Router<GatewayRequestContext>) {
        router.post("\(Self.creditCardAuthPath)") { request, context in
            await answering(context) { () async throws -> Response in try await creditCardAuth(request, context) }
        }
        router.post("\(Self.decryptPath)") { request, context in
            await answering(context, operation: "decrypt") { () async throws -> Response in try await decrypt(request, context) }
        }
        router.refuseMethods(except: [.post], on: "\(Self.creditCardAuthPath)")
        router.refuseMethods(except: [.post], on: "\(Self.decryptPath)")
    }

    /// Every failure as a `Fault` reply: the MPGS error middleware never sees this API's errors.
    /// Decrypt calls are logged (without card data) and counted, whatever their outcome.
    private func answering(
        _ context: GatewayRequestContext,
        operation: String? = nil,
        _ body: () async throws -> Response
    ) async -> Response {
        var fault: RadialFault
        do {
            let response = try await body()
            if let operation { record(operation, result: "DECRYPTED", context) }
            return response
        } catch let error as RadialFault {
            fault = error
        } catch let error as StoreUnavailable {
            error.log(to: context.logger)
            fault = RadialFault(.serviceUnavailable, "the gateway is busy; retry the request")
        } catch RequestBodyFailure.tooLarge {
            fault = RadialFault(.requestTooLarge, "the request body is larger than \(maxBodyBytes) bytes")
        } catch RequestBodyFailure.malformed(let why) {
            // A body the HTTP parser could not frame.
            fault = RadialFault(.invalidRequest, "Malformed HTTP request: \(why)")
        } catch {
            let supportCode = String(UInt64.random(in: 0..<UInt64.max), radix: 36).uppercased()
            context.logger.error("request failed", metadata: ["supportCode": "\(supportCode)", "error": "\(String(describing: error))"])
            fault = RadialFault(.serverFailed, "the request failed; support code \(supportCode)")
        }
        if let rejection = fault.tokenRejection { observer.tokenRejected(rejection) }
        if let operation { record(operation, result: fault.tokenRejection?.code ?? fault.kind.rawValue, context) }
        return fault.response(at: clock())
    }

    private func record(_ operation: String, result: String, _ context: GatewayRequestContext) {
        observer.radialDecrypt(result: result)
        context.logger.info("radial \(operation)", metadata: ["result": "\(result)"])
    }

    /// The authenticated merchant of the path's store.
    func merchant(_ request: Request, _ context: GatewayRequestContext) throws(RadialFault) -> Merchant {
        try authentication.authenticate(request, storeId: context.parameters.get("storeId") ?? "")
    }

    /// The body, parsed by the strict reader: the SDK posts `text/xml`; `application/xml` is the same.
    func document(_ request: Request) async throws -> (bytes: [UInt8], root: XMLElement) {
        if let contentType = request.headers[.contentType] {
            let mediaType = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            guard mediaType == "text/xml" || mediaType == "application/xml" else {
                throw RadialFault(.unsupportedMediaType, "the body must be XML: Content-Type text/xml or application/xml")
            }
        }
        let bytes = try await RequestBytes.collect(request, limit: maxBodyBytes)
        do {
            return (bytes, try XMLReader.parse(bytes, limits: XMLReader.Limits(maxBytes: maxBodyBytes)))
        } catch {
            throw RadialFault(.invalidRequest, error.description)
        }
    }

    static func xml(_ status: HTTPResponse.Status, _ bytes: [UInt8]) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/xml; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }
}

/// What the Radial front end reports beyond the core's payment events: each Decrypt call's result.
/// The server's metrics implement it.
package protocol RadialObserver: PaymentObserver {
    func radialDecrypt(result: String)
}
