# Build stage: compile the release binary.
FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY migrations ./migrations
COPY config ./config
COPY benches ./benches
RUN cargo build --release --locked --bin kismet

# Runtime stage: a slim image with the binary and a non-root user.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --create-home --home-dir /app kismet \
 && mkdir -p /app/data && chown kismet:kismet /app/data
WORKDIR /app
COPY --from=build /src/target/release/kismet /usr/local/bin/kismet
USER kismet
ENV DATABASE_URL=sqlite:///app/data/kismet.db
VOLUME ["/app/data"]
ENTRYPOINT ["kismet"]
CMD ["run"]
