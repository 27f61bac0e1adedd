import Foundation
import GatewayCertificates
import MerchantConsole
import X509

/// The certificate page's keys, kept by ``ApplePayIdentityDirectory`` exactly as
/// `gateway applepay-identity` keeps them, under `<root>/<gateway merchant id>/<Apple merchant
/// identifier>/`, so each merchant's operators see their own keys only, and
/// `gateway applepay-identity ... --directory <root>/<gateway merchant id>` works on the same files.
struct ConsoleApplePayIdentities: ApplePayIdentityManaging {
    let root: URL

    private func merchantRoot(_ merchantId: String) -> URL { root.appending(path: merchantId) }

    private func directory(_ merchantId: String, _ identifier: String) throws(ConsoleStepFailure) -> ApplePayIdentityDirectory {
        do {
            return try ApplePayIdentityDirectory(root: merchantRoot(merchantId).path, merchantIdentifier: identifier)
        } catch {
            throw ConsoleStepFailure(
                error.description.replacingOccurrences(of: "--merchant must be", with: "The merchant identifier must be")
            )
        }
    }

    func identities(merchantId: String) -> [ConsoleIdentity] {
        let identifiers =
            (try? FileManager.default.contentsOfDirectory(atPath: merchantRoot(merchantId).path))?.filter { $0.hasPrefix("merchant.") }
            .sorted() ?? []
        return identifiers.flatMap { identifier -> [ConsoleIdentity] in
            guard let directory = try? self.directory(merchantId, identifier) else { return [] }
            return directory.existingSlots().map { listing(directory, $0) }
        }
    }

    private func listing(_ directory: ApplePayIdentityDirectory, _ slot: ApplePayIdentityDirectory.Slot) -> ConsoleIdentity {
        let certificate = (try? String(contentsOf: directory.certificateFile(slot), encoding: .utf8))
            .flatMap { try? Certificate(pemEncoded: $0) }
        return ConsoleIdentity(
            appleMerchantIdentifier: directory.merchantIdentifier,
            label: slot.label,
            notValidAfter: certificate?.notValidAfter,
            keyPath: directory.keyFile(slot).path,
            certificatePath: directory.certificateFile(slot).path
        )
    }

    private func slot(_ directory: ApplePayIdentityDirectory, _ label: String) throws(ConsoleStepFailure) -> ApplePayIdentityDirectory.Slot {
        guard let slot = directory.existingSlots().first(where: { $0.label == label }) else {
            throw ConsoleStepFailure("There is no key \(label) for \(directory.merchantIdentifier).")
        }
        return slot
    }

    func createKey(merchantId: String, appleMerchantIdentifier: String) throws(ConsoleStepFailure) -> ConsoleIdentity {
        let directory = try directory(merchantId, appleMerchantIdentifier)
        do {
            let slots = try directory.createKeys([.ec])
            return listing(directory, slots[0])
        } catch {
            throw ConsoleStepFailure("The key could not be made: \(error)")
        }
    }

    func certificateSigningRequest(
        merchantId: String,
        appleMerchantIdentifier: String,
        label: String
    ) throws(ConsoleStepFailure) -> [UInt8] {
        let directory = try directory(merchantId, appleMerchantIdentifier)
        guard let bytes = FileManager.default.contents(atPath: directory.requestFile(try slot(directory, label)).path) else {
            throw ConsoleStepFailure("There is no CSR for key \(label) of \(appleMerchantIdentifier).")
        }
        return Array(bytes)
    }

    func install(merchantId: String, appleMerchantIdentifier: String, certificate: [UInt8]) throws(ConsoleStepFailure) -> ConsoleIdentity {
        let directory = try directory(merchantId, appleMerchantIdentifier)
        guard !certificate.isEmpty else { throw ConsoleStepFailure("Choose the apple_pay.cer file Apple returned.") }
        do {
            // The checks of `applepay-identity install`: Payment Processing (not Merchant
            // Identity), issued for this identifier, holding one of this directory's keys.
            let (matched, slot) = try directory.match(certificate: certificate)
            _ = try directory.store(matched, for: slot, replace: true)
            return listing(directory, slot)
        } catch let error as ApplePayIdentityError {
            throw ConsoleStepFailure(error.description.replacingOccurrences(of: "--merchant", with: "the merchant identifier"))
        } catch {
            throw ConsoleStepFailure("The certificate could not be stored: \(error)")
        }
    }

    func retire(merchantId: String, appleMerchantIdentifier: String, label: String) throws(ConsoleStepFailure) {
        let directory = try directory(merchantId, appleMerchantIdentifier)
        let slot = try slot(directory, label)
        let stamp = Int(Date().timeIntervalSince1970)
        let retired = directory.directory.appending(path: "retired")
        do {
            try FileManager.default.createDirectory(at: retired, withIntermediateDirectories: true)
            for file in [directory.keyFile(slot), directory.requestFile(slot), directory.certificateFile(slot)]
            where FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.moveItem(at: file, to: retired.appending(path: "\(stamp)-\(file.lastPathComponent)"))
            }
        } catch {
            throw ConsoleStepFailure("The key could not be retired: \(error)")
        }
    }
}
