# payrelay images, roles chosen by the command. The last stage, what `docker build .` makes, is the
# production image: payrelay-server.jar (api, worker, consumers, migrate and the operator commands;
# no dev stack, simulators, soak or bench). The `full` stage holds every command (compose's sandbox).
FROM maven:3.9-eclipse-temurin-25 AS build
WORKDIR /src
COPY . .
RUN ./mvnw -q -B -DskipTests -Dspotless.check.skip=true package

FROM eclipse-temurin:25-jre AS base
# curl for the compose healthchecks (GET /health/ready).
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 payrelay \
    && useradd --system --uid 10001 --gid payrelay --home-dir /app --shell /usr/sbin/nologin payrelay
WORKDIR /app
# An explicit heap limit: three quarters of the container's memory limit (the JVM reads the cgroup
# limit), leaving room for metaspace, thread stacks, gRPC and Netty's direct buffers. Override with
# JAVA_TOOL_OPTIONS (e.g. -Xmx512m) where the container has no memory limit. The client compiler
# only, as ./payrelay runs every command but `api` (deploy/local/jvm.sh; docs/benchmarks.md: on 2
# cores the optimizing compiler took 30-40% of a process's CPU and its code cache ~50 MiB, for no
# throughput); an api container drops -XX:TieredStopAtLevel=1, as docker-compose.yml's does.
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError -XX:TieredStopAtLevel=1"
# A non-root user: the process needs no privilege (ports above 1024, no writes outside /tmp).
USER payrelay:payrelay
EXPOSE 8080 8081 8090
ENTRYPOINT ["java", "--enable-native-access=ALL-UNNAMED", "-jar", "/app/payrelay.jar"]
CMD ["--help"]

# Every command: the dev stack's sandbox channel, soak and bench too (dist/target/payrelay.jar).
FROM base AS full
COPY --from=build --chown=root:root /src/dist/target/payrelay.jar /app/payrelay.jar

# Production (dist/target/payrelay-server.jar).
FROM base AS server
COPY --from=build --chown=root:root /src/dist/target/payrelay-server.jar /app/payrelay.jar
