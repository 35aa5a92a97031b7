# shellcheck shell=bash
# The JDK and the JVM flags every payrelay process runs with; sourced by ./payrelay and
# deploy/bench/run.sh, so a benchmark measures what the launcher runs.
#
#   pick_java [COMMAND]
#                  sets and exports JAVA_HOME (itself when it is a JDK 21+, else the newest JDK under
#                  /usr/lib/jvm) and JAVA_VERSION; exits 1 naming the newest one found when none is
#                  21 or newer; then sets PAYRELAY_JVM for COMMAND (payrelay_jvm)
#   payrelay_jvm COMMAND
#                  sets PAYRELAY_JVM, java and its flags for the payrelay command COMMAND, without
#                  -jar: -Xmx$PAYRELAY_HEAP (default 256m; a number with an optional k, m or g, else
#                  exit 2), the serial collector, exit on OutOfMemoryError (as the image), and then
#                  $PAYRELAY_JAVA_OPTS, whose default is the compiler for COMMAND (compiler_default)
#                  and is replaced when the variable is set, even to nothing. PAYRELAY_JAVA_OPTS is
#                  split on whitespace with no quoting (one line); as the last flags, an -Xmx there
#                  wins over PAYRELAY_HEAP. A flag that logs must write to stderr or a file
#                  (-Xlog:gc:stderr): payrelay's commands print their results on stdout.
#   compiler_default COMMAND
#                  prints the default compiler flags: none for `api` (the JVM's tiered compilers,
#                  the optimizing C2 included), -XX:TieredStopAtLevel=1 (the client compiler only)
#                  for every other command. Measured in docs/benchmarks.md: on 2 cores the client
#                  compiler kept each process under 512 MiB RSS and cost no throughput, where the
#                  optimizing compiler spent 30-40% of a short-lived process's CPU compiling
#                  ("2026-12-01 (third session)"); an api that runs for hours is past that, and
#                  there C2 takes a third less CPU per callback at 353 MiB ("2026-12-04").

MIN_JAVA=21

java_version() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/{print $2}' || true
}

pick_java() {
  local version=""
  [[ -n "${JAVA_HOME:-}" && -x "${JAVA_HOME}/bin/javac" ]] && version="$(java_version "$JAVA_HOME")"
  if [[ ! "$version" =~ ^[0-9]+$ ]] || (( version < MIN_JAVA )); then
    local was="${JAVA_HOME:-}"
    if [[ -n "$version" ]]; then
      echo "payrelay: JAVA_HOME=$was is Java $version; payrelay needs $MIN_JAVA+, using the newest JDK under /usr/lib/jvm instead" >&2
    elif [[ -n "$was" ]]; then
      echo "payrelay: JAVA_HOME=$was is not a JDK (no bin/javac); using the newest JDK under /usr/lib/jvm instead" >&2
    fi
    local dir v
    version=0
    for dir in /usr/lib/jvm/*/; do
      dir="${dir%/}"
      [[ -x "$dir/bin/javac" ]] || continue
      v="$(java_version "$dir")"
      [[ "$v" =~ ^[0-9]+$ ]] || continue
      if (( v > version )); then JAVA_HOME="$dir"; version="$v"; fi
    done
  fi
  if (( version < MIN_JAVA )); then
    echo "payrelay: needs a JDK $MIN_JAVA or newer; the newest under /usr/lib/jvm is Java ${version}. Install one there (Temurin 21+) or set JAVA_HOME to one." >&2
    exit 1
  fi
  [[ -n "${was:-}" ]] && echo "payrelay: using $JAVA_HOME (Java $version)" >&2
  export JAVA_HOME
  JAVA_VERSION="$version"
  payrelay_jvm "${1:-}"
}

compiler_default() {
  [[ "${1:-}" == api ]] || echo "-XX:TieredStopAtLevel=1"
}

payrelay_jvm() {
  local heap="${PAYRELAY_HEAP:-256m}" opts
  if [[ ! "$heap" =~ ^[0-9]+[kKmMgG]?$ ]]; then
    echo "payrelay: PAYRELAY_HEAP must be a size such as 256m or 1g (the JVM's -Xmx), got '$heap'" >&2
    exit 2
  fi
  read -ra opts <<<"${PAYRELAY_JAVA_OPTS-$(compiler_default "${1:-}")}"
  PAYRELAY_JVM=("$JAVA_HOME/bin/java" "-Xmx$heap" -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError
    --enable-native-access=ALL-UNNAMED)
  # gRPC's netty uses sun.misc.Unsafe; JDK 23+ warns about it unless allowed.
  (( JAVA_VERSION >= 23 )) && PAYRELAY_JVM+=(--sun-misc-unsafe-memory-access=allow)
  PAYRELAY_JVM+=("${opts[@]}")
}
