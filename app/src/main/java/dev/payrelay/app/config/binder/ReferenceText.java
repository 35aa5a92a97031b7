package dev.payrelay.app.config.binder;

/** The fixed prose of the configuration reference ({@link ConfigurationReference}). */
final class ReferenceText {

  private ReferenceText() {}

  static final String HEAD =
      """
      # Configuration reference

      Generated from the settings' declarations
      (`app/src/main/java/dev/payrelay/app/config/mapping/`) by `ConfigurationReference`; do not
      edit it by hand. After changing a setting, rewrite it with:

          {regenerate}

      ## Where a value comes from

      1. The environment: `PAYRELAY_<GROUP>_<NAME>` (a blank variable counts as unset).
      2. The configuration file: `PAYRELAY_CONFIG_FILE`, else `./payrelay.yaml` when it exists
         (YAML, or Java properties when it ends in `.properties`), with `payrelay.<group>.<name>`
         keys. A top-level `"%dev"`, `"%test"` or `"%prod"` section (properties: `%prod.` names)
         applies under that profile (`PAYRELAY_PROFILE`, else the file's own `payrelay.profile`)
         and wins over the file's other keys; the environment wins over both.
         `deploy/payrelay.example.yaml` is an example.
      3. The default below.

      Unknown names are refused at start, each naming the nearest known one: a `PAYRELAY_*`
      variable that is no setting, a file key under `payrelay.` that is none, a file key outside
      `payrelay.*`, a section for another profile. So are values of the wrong type or out of
      bounds, all at once, before the first log line. `payrelay config` prints every value with
      its source (secrets masked); `payrelay config --check` validates without starting anything.

      One syntax for each kind of value, in the environment and the file alike:

      - boolean: `true` or `false` (any case); `yes`, `1`, `on` are refused;
      - duration: a whole number and its unit `ms`, `s`, `m`, `h` or `d`: `500ms`, `30s`, `10m`,
        `7d`; a bare number is refused (no unit is implied);
      - size: a whole number and its unit `B`, `KiB`, `MiB` or `GiB`: `4KiB`, `64KiB`;
      - durations: a comma-separated list of durations, or `none`;
      - one of a few words (`text | json`): the word, any case.

      The Temporal client follows Temporal's own configuration (see the last table): each
      `PAYRELAY_TEMPORAL_*` setting below that is set wins over the matching `TEMPORAL_*`
      variable, which wins over the `temporal.toml` profile.

      ## Settings
      """;

  static final String RENAMED_HEAD =
      """

      ## Renamed variables

      Refused at start with the new name and the value in the new syntax (the unit moved from the
      name into the value).

      | Old variable | New variable |
      |---|---|
      """;

  static final String EXTERNAL_HEAD =
      """

      ## Variables read outside payrelay's process

      Accepted beside the settings; payrelay itself does not read them.

      | Variable | Read by | Meaning |
      |---|---|---|
      """;

  static final String TEMPORAL_HEAD =
      """

      ## Temporal's own client configuration

      Read as the `temporal` CLI and the Java SDK's temporal-envconfig read them: the variables
      over the `temporal.toml` profile (`TEMPORAL_PROFILE`, default `default`, in
      `TEMPORAL_CONFIG_FILE` or the user's config directory). A set `PAYRELAY_*` setting wins.

      | Variable | Overridden by | Meaning |
      |---|---|---|
      """;
}
