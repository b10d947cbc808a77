"""The independent check of `probaudit gate --attest` output that the tests use.

Usage: verify_attestation.py ENVELOPE.json PUBKEY.pem

The envelope is DSSE JSON holding an in-toto Statement v1 signed with Ed25519. No crypto of our
own here: securesystemslib's dsse.Envelope checks the signature over the PAE with an SSlibKey
made from the PEM (SubjectPublicKeyInfo), and in-toto-attestation's Statement (protobuf) checks
the payload. securesystemslib matches signatures to keys by keyid, so the signature's keyid
must be the key's default keyid: the SHA-256 hex of the canonical JSON
{"keytype":"ed25519","keyval":{"public":"<raw 32-byte key, lowercase hex>"},"scheme":"ed25519"}.
Prints "verified: <predicateType> <n> subjects" and exits 0, or prints one line why not (on
stderr) and exits 1.
"""

import json
import sys

import in_toto_attestation.v1.statement_pb2 as statement_pb2
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import load_pem_public_key
from google.protobuf import json_format
from in_toto_attestation.v1.statement import Statement
from securesystemslib import exceptions as sslib_errors
from securesystemslib.dsse import Envelope
from securesystemslib.signer import SSlibKey

PAYLOAD_TYPE = "application/vnd.in-toto+json"
# What malformed input raises (files, JSON, base64, hex, PEM, protobuf, signature checks).
LIBRARY_ERRORS = (UnsupportedAlgorithm, json_format.Error, sslib_errors.Error)
BAD_INPUT = (OSError, ValueError, KeyError, TypeError, AttributeError, *LIBRARY_ERRORS)


def load_key(path: str) -> SSlibKey:
    with open(path, "rb") as f:
        public = load_pem_public_key(f.read())
    if not isinstance(public, Ed25519PublicKey):
        raise ValueError(f"{path}: not an Ed25519 public key")
    return SSlibKey.from_crypto(public)  # keytype and scheme "ed25519", the default keyid


def verify(envelope_path: str, key_path: str) -> str:
    key = load_key(key_path)
    with open(envelope_path, "rb") as f:
        envelope = Envelope.from_dict(json.load(f))
    if envelope.payload_type != PAYLOAD_TYPE:
        raise ValueError(f"payloadType is {envelope.payload_type!r}, not {PAYLOAD_TYPE!r}")
    if key.keyid not in envelope.signatures:
        raise ValueError(f"no signature with the key's keyid {key.keyid}")
    try:
        envelope.verify([key], 1)  # the signature with the key's keyid must verify over the PAE
    except sslib_errors.VerificationError as e:
        raise ValueError(f"bad signature for keyid {key.keyid} ({e})") from e
    statement = json_format.Parse(envelope.payload.decode(), statement_pb2.Statement())
    Statement.copy_from_pb(statement).validate()  # _type, subjects with digests, predicate
    for i, subject in enumerate(statement.subject):
        if not subject.name or not subject.digest.get("sha256"):
            raise ValueError(f"subject {i} needs a name and a sha256 digest")
    return f"verified: {statement.predicate_type} {len(statement.subject)} subjects"


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: verify_attestation.py ENVELOPE.json PUBKEY.pem", file=sys.stderr)
        return 1
    try:
        print(verify(argv[1], argv[2]))
        return 0
    except BAD_INPUT as e:
        reason = str(e).splitlines()[0] if str(e) else ""
        print(f"rejected: {type(e).__name__}: {reason}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
