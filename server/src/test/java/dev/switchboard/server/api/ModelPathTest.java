package dev.switchboard.server.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.model.GatewayException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ModelPathTest {
    private static final String PREFIX = "/v1beta/models/";

    @Test
    void modelAndMethodSplitAtTheLastColon() {
        assertThat(ModelPath.parse("/v1beta/models/gemini-2.5-flash:streamGenerateContent", PREFIX))
                .isEqualTo(new ModelPath("gemini-2.5-flash", Optional.of("streamGenerateContent")));
        assertThat(ModelPath.parse("/v1beta/models/ns:model:generateContent", PREFIX))
                .isEqualTo(new ModelPath("ns:model", Optional.of("generateContent")));
    }

    @Test
    void modelIdsMayContainSlashesAndARepeatedModelsPrefixIsTolerated() {
        assertThat(ModelPath.parse("/v1beta/models/openai/gpt-4o:generateContent", PREFIX).model()).isEqualTo("openai/gpt-4o");
        assertThat(ModelPath.parse("/v1beta/models/models/gm-basic:generateContent", PREFIX).model()).isEqualTo("gm-basic");
    }

    @Test
    void aResourcePathHasNoMethod() {
        assertThat(ModelPath.parse("/v1beta/models/gm-basic", PREFIX)).isEqualTo(new ModelPath("gm-basic", Optional.empty()));
    }

    @Test
    void noModelIsANotFound() {
        for (String path : new String[] {"/v1beta/models/", "/v1beta/models/:generateContent", "/v1beta/models/a/"}) {
            assertThatThrownBy(() -> ModelPath.parse(path, PREFIX)).as(path)
                    .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().status()).isEqualTo(404));
        }
    }
}
