package dev.switchboard.engine.media;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.model.MediaSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ImageSourcePolicyTest {
    @ParameterizedTest(name = "{0} with {1}: bytes {2}")
    @CsvSource({
            "OPENAI, https://example.com/cat.png, false",
            "ANTHROPIC, https://example.com/cat.png, false",
            "SIMULATOR, https://example.com/cat.png, false",
            "GEMINI, https://example.com/cat.png, true",
            "GEMINI, http://127.0.0.1/cat.png, true",
            "GEMINI, gs://bucket/cat.png, false",
            "GEMINI, https://generativelanguage.googleapis.com/v1beta/files/abc123, false",
            "GEMINI, https://generativelanguage.googleapis.com.evil.test/v1beta/files/abc, true",
            "GEMINI, http://generativelanguage.googleapis.com/v1beta/files/abc, true",
    })
    void decidesPerProviderType(ProviderType type, String url, boolean bytes) {
        assertThat(ImageSourcePolicy.needsBytes(type, new MediaSource.Url(url))).isEqualTo(bytes);
    }
}
