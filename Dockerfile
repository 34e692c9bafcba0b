# haema's MCP server in a container: `haema mcp --http` on port 8731, the store and the
# embedding model's cache in the volume /data. See docs/mcp.md ("In a container").
#
#   docker build -t haema .
#   docker run --rm -v haema-data:/data haema agent-key create claude-laptop --access propose
#   docker run -d --name haema -v haema-data:/data -v /etc/haema/tls:/tls:ro -p 8731:8731 haema
#
# The default command serves HTTPS with the certificate in /tls (fullchain.pem, key.pem).
# Without one, publish the port on the host's loopback only and say the network in between
# is yours:
#   docker run -d -v haema-data:/data -p 127.0.0.1:8731:8731 haema mcp --http 0.0.0.0:8731 --trusted-network

FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p haema-tui --bin haema \
    && install -Dm755 target/release/haema /out/haema

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home-dir /data --create-home --uid 10001 haema
COPY --from=build /out/haema /usr/local/bin/haema
USER haema
ENV HAEMA_STORE=/data/store HF_HOME=/data/hf
VOLUME /data
EXPOSE 8731
ENTRYPOINT ["haema"]
CMD ["mcp", "--http", "0.0.0.0:8731", "--tls-cert", "/tls/fullchain.pem", "--tls-key", "/tls/key.pem"]
