import ArgumentParser
import Foundation
import Gateway
import GatewayConfigurationFile
import GooglePaySandbox
import GooglePayToken
import MPGSAPI

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
        // The sandbox endpoint's options and rules; only the expiry is given as for Apple Pay.
        var options = GooglePaySandboxOptions()
        options.authMethod = googlePay.authMethod
        options.pan = applicationPrimaryAccountNumber
        if let expiry = applicationExpirationDate {
            // YYMMDD, as for Apple Pay; Google's message carries the month and the year.
            let digits = Array(expiry.utf8)
            guard digits.count == 6, digits.allSatisfy({ (0x30...0x39).contains($0) }), let year = Int(expiry.prefix(2)) else {
                throw FileProblem(message: "--expiry must be YYMMDD, e.g. 301231")
            }
            options.expirationYear = String(2000 + year)
            options.expirationMonth = String(Int(expiry.dropFirst(2).prefix(2)) ?? 0)
        }
        options.cryptogram = onlinePaymentCryptogram
        options.eciIndicator = eciIndicator
        options.gatewayMerchantId = googlePay.gatewayMerchantId
        options.messageId = googlePay.messageId
        options.messageExpiration = googlePay.messageExpiration
        do {
            return try options.mintRequest(merchantId: merchant, now: Date())
        } catch {
            // Named by the flag that set the field.
            let flag = error.field.map { Self.flags[$0] ?? $0 }
            throw FileProblem(message: (flag.map { "\($0): " } ?? "") + error.explanation)
        }
    }

    /// The option that sets each of the sandbox options' fields.
    private static let flags = [
        "authMethod": "--auth-method", "pan": "--pan", "expirationMonth": "--expiry", "expirationYear": "--expiry",
        "cryptogram": "--cryptogram", "eciIndicator": "--eci", "gatewayMerchantId": "--gateway-merchant-id",
        "messageId": "--message-id", "messageExpiration": "--message-expiration",
    ]
}
