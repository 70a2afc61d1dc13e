#!/usr/bin/env bash
# Makes a throwaway certificate authority and, for each NAME, a server certificate for 127.0.0.1
# and localhost signed by it, valid for two days: what the TLS tests serve and trust.
#   make-test-certificates.sh DIR [NAME...]   writes DIR/ca.pem, DIR/ca.key, DIR/NAME.pem, DIR/NAME.key
#                                             (NAME defaults to "server")
set -euo pipefail
dir=$1
shift
names=("${@:-server}")
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

key "$dir/ca.key"
openssl req -x509 -new -key "$dir/ca.key" -out "$dir/ca.pem" -days 2 -subj "/CN=Quire test CA $$" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
for name in "${names[@]}"; do
  key "$dir/$name.key"
  openssl req -new -key "$dir/$name.key" -out "$dir/$name.csr" -subj "/CN=$name"
  openssl x509 -req -in "$dir/$name.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
    -out "$dir/$name.pem" -extfile <(printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost" \
      "basicConstraints=CA:FALSE" "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth") 2>/dev/null
  rm "$dir/$name.csr"
done
chmod 600 "$dir"/*.key
