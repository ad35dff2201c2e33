# Build stage: compile the lean release binary: no fake Discord, no schema
# validator (`--no-default-features` drops the `fake` feature), LTO and
# stripped (see `[profile.release]`).
FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock build.rs ./
COPY src ./src
COPY migrations ./migrations
COPY config ./config
COPY benches ./benches
# Cargo.toml names the end-to-end test target (tests/e2e/main.rs).
COPY tests ./tests
RUN cargo build --release --locked --no-default-features --bin kismet

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
# `docker stop` sends SIGTERM: the bot closes the gateway, finishes the
# interactions in flight, checkpoints the database and exits 0 within 10 s.
STOPSIGNAL SIGTERM
# Healthy while the database answers and the gateway beat within a minute.
# The heartbeat file sits beside the SQLite file; with PostgreSQL it is in
# the temporary directory (KISMET_HEARTBEAT names another place; see README,
# "Many servers", and docker-compose.yml).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
  CMD ["kismet", "health"]
ENTRYPOINT ["kismet"]
CMD ["run"]
