#!/usr/bin/env python3
"""Mints Google Pay payment method tokens with an implementation independent of the Swift library.

Python's `cryptography` package plays Google: a root signing key per protocol version, an
intermediate signing key signed by the ECv2 root, and two merchant (recipient) key pairs. It writes
ECv2 tokens (PAN_ONLY, CRYPTOGRAM_3DS, one for the second merchant key), an ECv1 token and an
ECv2SigningOnly token, each with the plaintext it carries.

Usage: mint_google_pay.py OUTPUT_DIR   (writes manifest.json and the files it names; test-only keys)
"""
import base64
import hashlib
import hmac
import json
import os
import struct
import sys
import time

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

RECIPIENT_ID = "gateway:python-minter"
NOW_MS = int(time.time() * 1000)
DAY_MS = 24 * 3600 * 1000


def b64(data):
    return base64.b64encode(data).decode()


def length_prefixed(*parts):
    return b"".join(struct.pack("<I", len(p.encode())) + p.encode() for p in parts)


def spki(key):
    return key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def sign(key, data):
    return key.sign(data, ec.ECDSA(hashes.SHA256()))


def encrypt(plaintext, recipient_public, key_bytes):
    """ECIES-KEM (ephemeral P-256, HKDF-SHA256) and AES-CTR + HMAC-SHA256, as Google's guide says."""
    ephemeral = ec.generate_private_key(ec.SECP256R1())
    point = ephemeral.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    shared = ephemeral.exchange(ec.ECDH(), recipient_public)
    keys = HKDF(algorithm=hashes.SHA256(), length=2 * key_bytes, salt=b"\x00" * 32, info=b"Google").derive(point + shared)
    encryptor = Cipher(algorithms.AES(keys[:key_bytes]), modes.CTR(b"\x00" * 16)).encryptor()
    ciphertext = encryptor.update(plaintext) + encryptor.finalize()
    tag = hmac.new(keys[key_bytes:], ciphertext, hashlib.sha256).digest()
    return json.dumps({"encryptedMessage": b64(ciphertext), "ephemeralPublicKey": b64(point), "tag": b64(tag)},
                      separators=(",", ":"))


def message(auth_method="PAN_ONLY", pan="4111111111111111", month=12, year=2031, cryptogram=None, eci=None,
            gateway_merchant_id=None, message_id=None):
    details = {"authMethod": auth_method, "pan": pan, "expirationMonth": month, "expirationYear": year}
    if cryptogram is not None:
        details["cryptogram"] = cryptogram
    if eci is not None:
        details["eciIndicator"] = eci
    body = {
        "messageExpiration": str(NOW_MS + DAY_MS),
        "messageId": message_id or "PY-" + base64.urlsafe_b64encode(os.urandom(24)).decode().rstrip("="),
        "paymentMethod": "CARD",
        "paymentMethodDetails": details,
    }
    if gateway_merchant_id is not None:
        body["gatewayMerchantId"] = gateway_merchant_id
    return json.dumps(body, separators=(",", ":")).encode()


def main(out):
    os.makedirs(out, exist_ok=True)
    roots = {version: ec.generate_private_key(ec.SECP256R1()) for version in ("ECv1", "ECv2", "ECv2SigningOnly")}
    intermediate = ec.generate_private_key(ec.SECP256R1())
    merchants = [ec.generate_private_key(ec.SECP256R1()) for _ in range(2)]

    keys_json = {"keys": [
        {"keyValue": b64(spki(roots["ECv1"])), "protocolVersion": "ECv1"},
        {"keyValue": b64(spki(roots["ECv2"])), "protocolVersion": "ECv2", "keyExpiration": str(NOW_MS + 365 * DAY_MS)},
        {"keyValue": b64(spki(roots["ECv2SigningOnly"])), "protocolVersion": "ECv2SigningOnly",
         "keyExpiration": str(NOW_MS + 365 * DAY_MS)},
    ]}
    files = {"keys.json": json.dumps(keys_json, indent=2)}
    for index, merchant in enumerate(merchants):
        files[f"merchant-{index}.pem"] = merchant.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()

    def intermediate_key(version):
        signed_key = json.dumps({"keyValue": b64(spki(intermediate)), "keyExpiration": str(NOW_MS + 7 * DAY_MS)},
                                separators=(",", ":"))
        return {"signedKey": signed_key,
                "signatures": [b64(sign(roots[version], length_prefixed("Google", version, signed_key)))]}

    def ecv2(plaintext, merchant, version="ECv2"):
        signed_message = encrypt(plaintext, merchant.public_key(), 32) if version == "ECv2" else plaintext.decode()
        return {
            "signature": b64(sign(intermediate, length_prefixed("Google", RECIPIENT_ID, version, signed_message))),
            "intermediateSigningKey": intermediate_key(version),
            "protocolVersion": version,
            "signedMessage": signed_message,
        }

    def ecv1(plaintext, merchant):
        signed_message = encrypt(plaintext, merchant.public_key(), 16)
        return {
            "signature": b64(sign(roots["ECv1"], length_prefixed("Google", RECIPIENT_ID, "ECv1", signed_message))),
            "protocolVersion": "ECv1",
            "signedMessage": signed_message,
        }

    plaintexts = {
        "ecv2-pan-only": message(gateway_merchant_id="merchant-123"),
        "ecv2-cryptogram-3ds": message("CRYPTOGRAM_3DS", pan="4895370012003478", month=3, year=2030,
                                       cryptogram="AgAAAAAABk4DWZ4C28yUQAAAAAA=", eci="05"),
        "ecv2-second-key": message(pan="5555555555554444"),
        "ecv1-pan-only": message(pan="378282246310005"),
        "ecv2-signing-only": message(pan="6011111111111117"),
    }
    tokens = {
        "ecv2-pan-only": ecv2(plaintexts["ecv2-pan-only"], merchants[0]),
        "ecv2-cryptogram-3ds": ecv2(plaintexts["ecv2-cryptogram-3ds"], merchants[0]),
        "ecv2-second-key": ecv2(plaintexts["ecv2-second-key"], merchants[1]),
        "ecv1-pan-only": ecv1(plaintexts["ecv1-pan-only"], merchants[0]),
        "ecv2-signing-only": ecv2(plaintexts["ecv2-signing-only"], merchants[0], "ECv2SigningOnly"),
    }
    manifest = {"recipientId": RECIPIENT_ID, "tokens": {}}
    for name, token in tokens.items():
        files[f"{name}.token.json"] = json.dumps(token, separators=(",", ":"))
        files[f"{name}.expected.json"] = plaintexts[name].decode()
        manifest["tokens"][name] = {"token": f"{name}.token.json", "expected": f"{name}.expected.json"}
    files["manifest.json"] = json.dumps(manifest, indent=2)
    for name, text in files.items():
        with open(os.path.join(out, name), "w") as handle:
            handle.write(text)


if __name__ == "__main__":
    main(sys.argv[1])
