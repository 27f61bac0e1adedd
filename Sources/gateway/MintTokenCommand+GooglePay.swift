import ArgumentParser
import Foundation
import Gateway
import GooglePaySandbox
import GooglePayToken

extension MintTokenCommand {
    /// An ECv2 token for the merchant, signed under the sandbox Google root and encrypted to
    /// --public-key (default: the merchant's newest configured Google Pay key), for the
    /// merchant's recipient id; its JSON text.
    func mintGooglePay() async throws -> String {
        let merchantId = merchant
        let (configured, sandboxDirectory) = try await ConfigurationExit.reporting { () async throws -> (GooglePaySettings?, String) in
            let configuration = try await GatewayService.loadConfiguration(GatewayService.Overrides(configFile: config))
            guard let settings = configuration.merchants.first(where: { $0.id == merchantId }) else {
                throw ConfigurationError(key: "merchants", problem: "does not list \(merchantId)")
            }
            return (settings.googlePay, configuration.googlePaySandboxDirectory)
        }
        do {
            guard let keyFile = googlePay.publicKey ?? configured?.privateKeyPaths.first else {
                throw FileProblem(
                    message: "a Google Pay token needs --public-key: \(merchantId) has no merchant.\(merchantId).googlePay.privateKeys configured"
                )
            }
            guard let data = FileManager.default.contents(atPath: keyFile) else { throw FileProblem(message: "cannot read \(keyFile)") }
            guard let recipientKey = GooglePayTokenMinter.recipientPublicKey(from: String(decoding: data, as: UTF8.self)) else {
                throw FileProblem(message: "\(keyFile): not a P-256 key (a public key as base64 or PEM, or a private key)")
            }
            // The server's own root (so a `serve` beside it trusts the token), unless given.
            let directory = URL(fileURLWithPath: googlePay.googleSandboxDirectory ?? sandboxDirectory)
            let root: GooglePaySandboxRoot
            do {
                root = try GooglePaySandboxDirectory.root(at: directory)
            } catch {
                throw FileProblem(message: error.description)
            }
            return try GooglePayTokenMinter(root: root).mint(
                try googlePayRequest(),
                recipientId: googlePay.recipientId ?? "gateway:\(configured?.gatewayId ?? GooglePaySettings.defaultGatewayId)",
                recipientPublicKey: recipientKey
            )
        } catch let error as FileProblem {
            FileHandle.standardError.write(Data("error: \(error.message)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// The message the options describe; what they leave out is a sandbox Visa card.
    private func googlePayRequest() throws -> GooglePayMintRequest {
        var request = GooglePayMintRequest()
        if let pan = applicationPrimaryAccountNumber { request.pan = pan }
        if let expiry = applicationExpirationDate {
            // YYMMDD, as for Apple Pay; Google's message carries the month and the year.
            let digits = Array(expiry.utf8)
            guard digits.count == 6, digits.allSatisfy({ (0x30...0x39).contains($0) }), let year = Int(expiry.prefix(2)),
                let month = Int(expiry.dropFirst(2).prefix(2)), (1...12).contains(month)
            else { throw FileProblem(message: "--expiry must be YYMMDD, e.g. 301231") }
            request.expirationYear = 2000 + year
            request.expirationMonth = month
        }
        let authMethod = googlePay.authMethod.flatMap(GooglePayMessage.AuthMethod.init(rawValue:))
        request.authMethod = authMethod ?? (onlinePaymentCryptogram == nil ? .panOnly : .cryptogram3DS)
        if request.authMethod == .cryptogram3DS {
            // A test cryptogram's shape; the sandbox acquirer does not check its value.
            request.cryptogram = onlinePaymentCryptogram ?? "AgAAAAAABk4DWZ4C28yUQAAAAAA="
            request.eciIndicator = eciIndicator
        } else if onlinePaymentCryptogram != nil || eciIndicator != nil {
            throw FileProblem(message: "--cryptogram and --eci are for CRYPTOGRAM_3DS, not PAN_ONLY")
        }
        request.gatewayMerchantId = googlePay.gatewayMerchantId ?? merchant
        request.messageId = googlePay.messageId
        if let expiration = googlePay.messageExpiration.flatMap(ISO8601.date(from:)) { request.messageExpiration = expiration }
        return request
    }
}
