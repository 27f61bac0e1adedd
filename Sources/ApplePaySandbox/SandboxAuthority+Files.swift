import ApplePayToken
import Crypto
import Foundation
import X509
import _CryptoExtras

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension SandboxAuthority {
    /// The PEM files an authority lives in; keys are PKCS#8.
    enum FileName {
        static let root = "root.pem"
        static let rootKey = "root-key.pem"
        static let intermediate = "intermediate.pem"
        static let intermediateKey = "intermediate-key.pem"
        static let ecLeaf = "leaf-ec.pem"
        static let ecLeafKey = "leaf-ec-key.pem"
        static let rsaLeaf = "leaf-rsa.pem"
        static let rsaLeafKey = "leaf-rsa-key.pem"
    }

    /// Writes the certificates and keys as PEM files into `directory`, creating it (mode 0700) if needed.
    ///
    /// Key files get mode 0600 from the moment they exist. `root.pem` is written last, so its
    /// presence means the set is complete (``loadOrCreate(at:)`` relies on that).
    public func write(to directory: URL) throws {
        try SecureFile.createDirectory(directory)
        for file in try files() {
            try SecureFile.store(
                Array((file.contents.hasSuffix("\n") ? file.contents : file.contents + "\n").utf8),
                at: directory.appending(path: file.name),
                mode: file.secret ? 0o600 : 0o644
            )
        }
    }

    /// The files ``write(to:)`` writes, in its order: `root.pem` last.
    private func files() throws -> [(name: String, contents: String, secret: Bool)] {
        [
            (FileName.rootKey, rootKey.pemRepresentation, true),
            (FileName.intermediate, try intermediate.pemString, false),
            (FileName.intermediateKey, intermediateKey.pemRepresentation, true),
            (FileName.ecLeaf, try ecLeaf.pemString, false),
            (FileName.ecLeafKey, ecLeafKey.pemRepresentation, true),
            (FileName.rsaLeaf, try rsaLeaf.pemString, false),
            (FileName.rsaLeafKey, rsaLeafKey.pkcs8PEMRepresentation, true),
            (FileName.root, try root.pemString, false),
        ]
    }

    /// The authority's files as one JSON object of file name to PEM text, for a store that
    /// keeps it for several replicas (the gateway in sandbox mode).
    public func archived() throws -> [UInt8] {
        let files = Dictionary(uniqueKeysWithValues: try files().map { ($0.name, $0.contents) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Array(try encoder.encode(files))
    }

    /// Reads what ``archived()`` made, checked as ``load(from:)`` checks files.
    public static func unarchive(_ archive: [UInt8], origin: String = "the archived sandbox authority") throws -> SandboxAuthority {
        guard let files = try? JSONDecoder().decode([String: String].self, from: Data(archive)) else {
            throw SandboxError("\(origin) is not an archive of PEM files")
        }
        return try load(origin: origin) { name in
            guard let text = files[name] else { throw SandboxError("\(origin) has no \(name)") }
            return text
        }
    }

    /// Reads an authority that ``write(to:)`` wrote, and checks that every key belongs to its
    /// certificate and that each certificate was issued by the one above it.
    public static func load(from directory: URL) throws -> SandboxAuthority {
        try load(origin: directory.path) { name in
            let url = directory.appending(path: name)
            do {
                return try String(contentsOf: url, encoding: .utf8)
            } catch {
                throw SandboxError("cannot read \(url.path)")
            }
        }
    }

    private static func load(origin: String, text: (String) throws -> String) throws -> SandboxAuthority {
        func certificate(_ name: String) throws -> Certificate {
            do {
                return try Certificate(pemEncoded: try text(name))
            } catch let error as SandboxError {
                throw error
            } catch {
                throw SandboxError("\(name) is not a PEM certificate")
            }
        }
        func key<Key>(_ name: String, _ parse: (String) throws -> Key) throws -> Key {
            let pem = try text(name)
            do {
                return try parse(pem)
            } catch {
                throw SandboxError("\(name) is not a PKCS#8 private key of the expected type")
            }
        }

        let authority = SandboxAuthority(
            root: try certificate(FileName.root),
            intermediate: try certificate(FileName.intermediate),
            ecLeaf: try certificate(FileName.ecLeaf),
            rsaLeaf: try certificate(FileName.rsaLeaf),
            rootKey: try key(FileName.rootKey) { try P384.Signing.PrivateKey(pemRepresentation: $0) },
            intermediateKey: try key(FileName.intermediateKey) { try P256.Signing.PrivateKey(pemRepresentation: $0) },
            ecLeafKey: try key(FileName.ecLeafKey) { try P256.Signing.PrivateKey(pemRepresentation: $0) },
            rsaLeafKey: try key(FileName.rsaLeafKey) { try _RSA.Signing.PrivateKey(pemRepresentation: $0) }
        )
        try authority.checkConsistency(origin: origin)
        return authority
    }

    /// The root certificate's DER: what tells two authorities apart.
    public var rootCertificateDER: [UInt8] {
        get throws { try root.derBytes }
    }

    /// Whether `directory` holds an authority (``write(to:)`` writes `root.pem` last).
    public static func exists(at directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: directory.appending(path: FileName.root).path)
    }

    /// Loads the authority in `directory`, or makes one (generates it, unless told otherwise)
    /// and writes it there on first use.
    ///
    /// Replicas may start together on a shared directory: a new authority is written beside the
    /// directory and moved into place with one rename, so every process sees all the files of one
    /// authority or none, and the first to finish wins.
    public static func loadOrCreate(
        at directory: URL,
        making make: () throws -> SandboxAuthority = { try generate() }
    ) throws -> SandboxAuthority {
        let root = directory.appending(path: FileName.root).path
        if FileManager.default.fileExists(atPath: root) { return try load(from: directory) }
        let authority = try make()
        let staging = directory.deletingLastPathComponent()
            .appending(path: ".\(directory.lastPathComponent).\(Hex.encode(Bytes.random(count: 8)))")
        try authority.write(to: staging)
        if rename(staging.path, directory.path) == 0 { return authority }
        try? FileManager.default.removeItem(at: staging)
        if FileManager.default.fileExists(atPath: root) { return try load(from: directory) }
        // The directory exists and cannot be replaced (a mount point, say): write into it.
        try authority.write(to: directory)
        return authority
    }

    /// Mixed-up files (a key from one authority, a certificate from another) would mint tokens
    /// that fail later with a confusing error; say which file is wrong now.
    private func checkConsistency(origin: String) throws {
        let pairs: [(String, Certificate, Certificate.PublicKey)] = [
            (FileName.rootKey, root, Certificate.PublicKey(rootKey.publicKey)),
            (FileName.intermediateKey, intermediate, Certificate.PublicKey(intermediateKey.publicKey)),
            (FileName.ecLeafKey, ecLeaf, Certificate.PublicKey(ecLeafKey.publicKey)),
            (FileName.rsaLeafKey, rsaLeaf, Certificate.PublicKey(rsaLeafKey.publicKey)),
        ]
        for (name, certificate, publicKey) in pairs where certificate.publicKey != publicKey {
            throw SandboxError("\(name) in \(origin) does not belong to its certificate")
        }
        let issued: [(String, Certificate, Certificate)] = [
            (FileName.root, root, root),
            (FileName.intermediate, intermediate, root),
            (FileName.ecLeaf, ecLeaf, intermediate),
            (FileName.rsaLeaf, rsaLeaf, intermediate),
        ]
        for (name, certificate, issuer) in issued
        where certificate.issuer != issuer.subject || !issuer.publicKey.isValidSignature(certificate.signature, for: certificate) {
            throw SandboxError("\(name) in \(origin) was not issued by this authority")
        }
    }
}
