package dev.payrelay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The signal input {@code admin sign-signal} prints for the Temporal UI's Data box. */
class AdminSignSignalCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void input_isLaidOutAsTheUisEditorLaysItOut_twoSpaceIndentAndKeyColonSpace() throws Exception {
    String input =
        "{\"action\":\"REPLAY_EVENT\",\"reason\":\"queue \\\"bound\\\"\",\"n\":2,"
            + "\"empty\":{},\"list\":[1,{\"a\":null}],\"none\":[]}";

    assertThat(AdminSignSignalCommand.formatted(JSON.readTree(input), ""))
        .isEqualTo(
            String.join(
                "\n",
                "{",
                "  \"action\": \"REPLAY_EVENT\",",
                "  \"reason\": \"queue \\\"bound\\\"\",",
                "  \"n\": 2,",
                "  \"empty\": {},",
                "  \"list\": [",
                "    1,",
                "    {",
                "      \"a\": null",
                "    }",
                "  ],",
                "  \"none\": []",
                "}"));
  }
}
