#!/usr/bin/env python3
"""Mints Apple Pay tokens with an implementation independent of the Swift library.

Python's `cryptography` package builds a certificate authority shaped like Apple's (root ->
intermediate with marker 1.2.840.113635.100.6.2.14 -> leaf with marker 1.2.840.113635.100.6.29),
merchant payment processing keys and certificates, and EC_v1 / RSA_v1 tokens that cover what no
public vector has: applicationData, a shared secret with a leading zero byte, EMV data, an RSA leaf,
every negative case of Apple's step 1 and an unknown publicKeyHash.

Usage: mint_tokens.py OUTPUT_DIR   (writes manifest.json and the files it names; test-only keys)
"""
import base64
import datetime
import hashlib
import json
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.serialization import pkcs7
from cryptography.x509.oid import NameOID

LEAF_MARKER = x509.ObjectIdentifier("1.2.840.113635.100.6.29")
INTERMEDIATE_MARKER = x509.ObjectIdentifier("1.2.840.113635.100.6.2.14")
MERCHANT_ID_EXTENSION = x509.ObjectIdentifier("1.2.840.113635.100.6.32")
MERCHANT_ID = "merchant.test.applepay-gateway"
DER_NULL = b"\x05\x00"
NOW = datetime.datetime.now(datetime.timezone.utc)


def name(common_name):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Test Only")])


def certificate(subject, subject_key, issuer, issuer_key, *, ca, extensions=()):
    builder = (x509.CertificateBuilder()
               .subject_name(name(subject)).issuer_name(name(issuer))
               .public_key(subject_key.public_key())
               .serial_number(x509.random_serial_number())
               .not_valid_before(NOW - datetime.timedelta(days=30))
               .not_valid_after(NOW + datetime.timedelta(days=3650))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if ca:
        builder = builder.add_extension(
            x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                          data_encipherment=False, key_agreement=False, key_cert_sign=True,
                          crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
    for oid, value in extensions:
        builder = builder.add_extension(x509.UnrecognizedExtension(oid, value), critical=False)
    digest = hashes.SHA384() if isinstance(issuer_key, ec.EllipticCurvePrivateKey) and \
        isinstance(issuer_key.curve, ec.SECP384R1) else hashes.SHA256()
    return builder.sign(issuer_key, digest)


RSA_ENCRYPTION = bytes.fromhex("06092a864886f70d0101010500")
SHA256_WITH_RSA = bytes.fromhex("06092a864886f70d01010b0500")


class Authority:
    """Root -> intermediate -> leaf, with or without Apple's markers."""

    def __init__(self, label, *, leaf_marker=True, intermediate_marker=True, rsa_leaf=False):
        self.root_key = ec.generate_private_key(ec.SECP384R1())
        self.root = certificate(f"{label} Root", self.root_key, f"{label} Root", self.root_key, ca=True)
        self.intermediate_key = ec.generate_private_key(ec.SECP256R1())
        self.intermediate = certificate(
            f"{label} Intermediate", self.intermediate_key, f"{label} Root", self.root_key, ca=True,
            extensions=[(INTERMEDIATE_MARKER, DER_NULL)] if intermediate_marker else [])
        self.leaf_key = rsa.generate_private_key(65537, 2048) if rsa_leaf else ec.generate_private_key(ec.SECP256R1())
        self.leaf = certificate(
            f"{label} Leaf", self.leaf_key, f"{label} Intermediate", self.intermediate_key, ca=False,
            extensions=[(LEAF_MARKER, DER_NULL)] if leaf_marker else [])

    def sign(self, content):
        signature = (pkcs7.PKCS7SignatureBuilder().set_data(content)
                     .add_signer(self.leaf, self.leaf_key, hashes.SHA256())
                     .add_certificate(self.intermediate)
                     .sign(serialization.Encoding.DER,
                           [pkcs7.PKCS7Options.DetachedSignature, pkcs7.PKCS7Options.Binary]))
        # OpenSSL names an RSA signer's algorithm rsaEncryption; Apple writes sha256WithRSAEncryption
        # (and the verifier takes only Apple's form). The signature covers the signed attributes, not
        # this identifier, so the last one (the SignerInfo's) is rewritten in place.
        if isinstance(self.leaf_key, rsa.RSAPrivateKey):
            at = signature.rindex(RSA_ENCRYPTION)
            signature = signature[:at] + SHA256_WITH_RSA + signature[at + len(RSA_ENCRYPTION):]
        # DER sorts the SET of certificates by encoding; Apple lists the leaf first (and the
        # verifier takes only that order). No signature covers the order: swap them in place.
        leaf = self.leaf.public_bytes(serialization.Encoding.DER)
        intermediate = self.intermediate.public_bytes(serialization.Encoding.DER)
        signature = signature.replace(intermediate + leaf, leaf + intermediate)
        return signature


def merchant_certificate(key, issuer_authority):
    id_hash_hex = hashlib.sha256(MERCHANT_ID.encode()).hexdigest().upper().encode()
    utf8_string = b"\x0c" + bytes([len(id_hash_hex)]) + id_hash_hex
    return certificate("Apple Pay Payment Processing:" + MERCHANT_ID, key, "Merchant Issuing CA",
                       issuer_authority, ca=False, extensions=[(MERCHANT_ID_EXTENSION, utf8_string)])


def spki_hash(public_key):
    der = public_key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


def kdf(shared_secret, party_v):
    return hashlib.sha256(b"\x00\x00\x00\x01" + shared_secret + b"\x0did-aes256-GCM" + b"Apple" + party_v).digest()


def encrypt(key, payment_data):
    plaintext = json.dumps(payment_data, separators=(",", ":")).encode()
    return AESGCM(key).encrypt(b"\x00" * 16, plaintext, None)


def ec_token(authority, merchant_key, payment_data, *, application_data=None, leading_zero=False):
    party_v = hashlib.sha256(MERCHANT_ID.encode()).digest()
    while True:
        ephemeral = ec.generate_private_key(ec.SECP256R1())
        shared = ephemeral.exchange(ec.ECDH(), merchant_key.public_key())
        if not leading_zero or shared[0] == 0:
            break
    ephemeral_der = ephemeral.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    data = encrypt(kdf(shared, party_v), payment_data)
    return assemble("EC_v1", authority, "ephemeralPublicKey", ephemeral_der, data, merchant_key,
                    application_data), shared


def rsa_token(authority, merchant_key, payment_data):
    aes_key = os.urandom(16)
    wrapped = merchant_key.public_key().encrypt(
        aes_key, padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None))
    return assemble("RSA_v1", authority, "wrappedKey", wrapped, encrypt(aes_key, payment_data), merchant_key, None)


def assemble(version, authority, key_field, key_bytes, data, merchant_key, application_data):
    transaction_id = os.urandom(32)
    signed = key_bytes + data + transaction_id
    header = {key_field: base64.b64encode(key_bytes).decode(),
              "publicKeyHash": spki_hash(merchant_key.public_key()),
              "transactionId": transaction_id.hex()}
    if application_data is not None:
        digest = hashlib.sha256(application_data).digest()
        signed += digest
        header["applicationData"] = digest.hex()
    return {"version": version, "data": base64.b64encode(data).decode(),
            "signature": base64.b64encode(authority.sign(signed)).decode(), "header": header}


def payment_data_3ds(**extra):
    data = {"applicationPrimaryAccountNumber": "4111111111111111", "applicationExpirationDate": "311231",
            "currencyCode": "840", "transactionAmount": 5656, "deviceManufacturerIdentifier": "040010030273",
            "paymentDataType": "3DSecure",
            "paymentData": {"onlinePaymentCryptogram": "AOm+7lPDSbobAGVT7hmNAoABFA==", "eciIndicator": "7"}}
    data.update(extra)
    return data


def payment_data_emv():
    return {"applicationPrimaryAccountNumber": "5204245250001488", "applicationExpirationDate": "300630",
            "currencyCode": "978", "transactionAmount": 1999, "deviceManufacturerIdentifier": "040010030273",
            "paymentDataType": "EMV",
            "paymentData": {"emvData": base64.b64encode(os.urandom(48)).decode(),
                            "encryptedPINData": os.urandom(8).hex().upper()}}


def pem(value):
    if isinstance(value, x509.Certificate):
        return value.public_bytes(serialization.Encoding.PEM)
    return value.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                               serialization.NoEncryption())


def main(out):
    os.makedirs(out, exist_ok=True)
    write = lambda name, data: open(os.path.join(out, name), "wb").write(data)
    authority = Authority("Test Apple Pay")
    rsa_leaf_authority = Authority("Test RSA Leaf", rsa_leaf=True)
    # Each RSA-leaf chain has its own root; the tests trust both roots.
    merchant_ca = ec.generate_private_key(ec.SECP256R1())
    ec_merchant = ec.generate_private_key(ec.SECP256R1())
    rsa_merchant = rsa.generate_private_key(65537, 2048)
    stranger = ec.generate_private_key(ec.SECP256R1())

    write("root.pem", pem(authority.root))
    write("root-rsa-leaf.pem", pem(rsa_leaf_authority.root))
    ec_cert = merchant_certificate(ec_merchant, merchant_ca)
    rsa_cert = merchant_certificate(rsa_merchant, merchant_ca)
    # Key files in the shapes merchants have them.
    sec1 = ec_merchant.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                     serialization.NoEncryption())
    write("merchant-ec-key-openssl-export.pem",
          b"Bag Attributes\n    localKeyID: 01 02 03 04\n    friendlyName: merchant\nKey Attributes: <No Attributes>\n"
          b"-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n" + sec1)
    write("merchant-ec-key-pkcs8.pem", pem(ec_merchant))
    write("merchant-ec-key.der", ec_merchant.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    write("merchant-ec-key-encrypted.pem", ec_merchant.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"secret")))
    write("merchant-ec-cert.pem", b"Bag Attributes\n    localKeyID: 01 02 03 04\nsubject=CN = merchant\n" + pem(ec_cert))
    write("merchant-ec-cert.cer", ec_cert.public_bytes(serialization.Encoding.DER))
    write("merchant-rsa-key-pkcs1.pem", rsa_merchant.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption()))
    write("merchant-rsa-cert.pem", pem(rsa_cert))
    write("stranger-ec-key.pem", pem(stranger))

    tokens = {}

    def add(name, token, expected, **facts):
        write(f"{name}.token.json", json.dumps(token, indent=2).encode())
        write(f"{name}.expected.json", json.dumps(expected).encode())
        tokens[name] = dict(token=f"{name}.token.json", expected=f"{name}.expected.json", **facts)

    rich = payment_data_3ds(
        cardholderName="Jane Appleseed",
        authenticationResponses=[{"merchantIdentifier": "merchant.sub.one", "authenticationData": "AAECAwQ=",
                                  "transactionAmount": "1000"}],
        merchantTokenIdentifier="DNITHE302308980427388297",
        merchantTokenMetadata={"cardMetadata": {"0": {"cardArt": "https://example.invalid/art.png"}},
                               "lastFour": "1111"},
        futureField={"kept": True})
    token, _ = ec_token(authority, ec_merchant, rich, application_data=b"order=1234;merchant=TESTMERCHANT")
    add("ec-application-data", token, rich, applicationData="order=1234;merchant=TESTMERCHANT")

    plain = payment_data_3ds()
    token, shared = ec_token(authority, ec_merchant, plain, leading_zero=True)
    add("ec-leading-zero-secret", token, plain, sharedSecretHex=shared.hex())

    emv = payment_data_emv()
    add("rsa-rsa-leaf-emv", rsa_token(rsa_leaf_authority, rsa_merchant, emv), emv)

    for label, kind in [("neg-no-leaf-marker", dict(leaf_marker=False)),
                        ("neg-no-intermediate-marker", dict(intermediate_marker=False))]:
        unmarked = Authority(label, **kind)
        token, _ = ec_token(unmarked, ec_merchant, plain)
        # Its root is written so a test can trust it and see that the missing marker alone is rejected.
        write(f"{label}.root.pem", pem(unmarked.root))
        add(label, token, plain, root=f"{label}.root.pem")

    foreign, _ = ec_token(Authority("Foreign"), ec_merchant, plain)
    add("neg-foreign-root", foreign, plain)

    unknown, _ = ec_token(authority, stranger, plain)
    add("neg-unknown-public-key-hash", unknown, plain)

    write("manifest.json", json.dumps({"merchantIdentifier": MERCHANT_ID, "tokens": tokens}, indent=2).encode())

if __name__ == "__main__":
    main(sys.argv[1])
