# The gateway as a container image: `docker build -t applepay-gateway .` from the repository root.
# Deploy/README.md says how to run it. CI builds and runs it with podman (.ci/container-test), and
# .ci/validate-deploy lints it and checks that the runtime stage installs what its binary links.

# ---------------------------------------------------------------------------------------------
# Build: the Swift runtime is linked statically, so the runtime image needs no Swift toolchain.
# ---------------------------------------------------------------------------------------------
FROM docker.io/library/swift:6.3-bookworm AS build

# The system libraries Package.swift links: OpenSSL's libcrypto and SQLite (found by pkg-config).
# hadolint ignore=DL3008
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends libssl-dev libsqlite3-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /build

# Resolve dependencies in their own layer, reused while Package.swift is unchanged.
COPY Package.* ./
RUN swift package resolve

# SwiftPM checks every declared target's folder, the test targets' included (see .dockerignore).
COPY . .
RUN swift build -c release --static-swift-stdlib --product gateway

WORKDIR /staging
# The backtracer lets a crash print a symbolicated stack trace instead of a bare signal. It names
# each frame's function from the symbol table, which stays; the DWARF debug sections (file and
# line numbers, a third of the binary) are stripped. .ci/container-test reports both sizes.
RUN cp "$(swift build --package-path /build -c release --show-bin-path)/gateway" ./ \
    && strip --strip-debug gateway \
    && cp /usr/libexec/swift/linux/swift-backtrace-static ./

# ---------------------------------------------------------------------------------------------
# Runtime: slim Debian with exactly the shared libraries the binary links (`ldd` on the build).
# ---------------------------------------------------------------------------------------------
FROM docker.io/library/debian:bookworm-slim

# What `ldd` lists for the binary and the backtracer: libssl3 (libcrypto.so.3, and the legacy
# provider Keychain's PKCS#12 bundles need), libsqlite3-0, zlib1g (libz.so.1: the webhook
# client's response decompression), and the C++ runtime the statically linked Swift runtime uses
# (libstdc++6, libgcc-s1). ca-certificates for outbound TLS (webhook deliveries, a database).
# hadolint ignore=DL3008
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends libssl3 libsqlite3-0 zlib1g libstdc++6 libgcc-s1 ca-certificates \
    && rm -rf /var/lib/apt/lists/*

# A fixed numeric id, so Kubernetes' runAsNonRoot can verify it and volumes can be chowned to it.
RUN useradd --system --uid 10001 --user-group --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin gateway \
    && install -d -o gateway -g gateway -m 0750 /var/lib/gateway

COPY --from=build /staging/gateway /usr/local/bin/gateway
COPY --from=build /staging/swift-backtrace-static /usr/local/libexec/swift-backtrace-static
# The test-only sandbox identities (public, see Config/sandbox/README.md): with no --config the
# image runs the README's sandbox, whose embedded defaults read them relative to /app.
COPY Config/sandbox /app/Config/sandbox
WORKDIR /app

# Environment outranks the --config file: these hold for every container (listen on all
# interfaces, the port EXPOSEd below, everything written on the volume: the database, and in
# sandbox mode the sandbox certificate authority). Override them with -e, not in the file.
# Configuration otherwise comes from a file mounted at e.g. /etc/gateway/gateway.json
# (`serve --config ...`), secrets from mounted files (/run/secrets/...) and GATEWAY_* variables.
ENV GATEWAY_SERVER_HOST=0.0.0.0 \
    GATEWAY_SERVER_PORT=8080 \
    GATEWAY_STORE_URL=sqlite:///var/lib/gateway/gateway.sqlite \
    GATEWAY_SANDBOX_AUTHORITY_DIRECTORY=/var/lib/gateway/sandbox-authority \
    SWIFT_BACKTRACE=enable=yes,sanitize=yes,threads=all,images=all,interactive=no,swift-backtrace=/usr/local/libexec/swift-backtrace-static

# The SQLite database (with its WAL and shared-memory files) lives here; keep it on a volume.
VOLUME ["/var/lib/gateway"]

USER 10001:10001
EXPOSE 8080

# The slim image has no curl: bash's /dev/tcp asks the liveness endpoint and wants a 200.
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${GATEWAY_SERVER_PORT:-8080} && printf 'GET /healthz HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && read -r _ status _ <&3 && [ \"$status\" = 200 ]"]

ENTRYPOINT ["/usr/local/bin/gateway"]
CMD ["serve"]
