# payrelay image: one jar, roles chosen by the command (api, worker, migrate, ...).
FROM maven:3.9-eclipse-temurin-25 AS build
WORKDIR /src
COPY . .
RUN ./mvnw -q -B -DskipTests -Dspotless.check.skip=true package

FROM eclipse-temurin:25-jre
WORKDIR /app
COPY --from=build /src/worker/target/payrelay.jar /app/payrelay.jar
ENTRYPOINT ["java", "--enable-native-access=ALL-UNNAMED", "-jar", "/app/payrelay.jar"]
CMD ["--help"]
