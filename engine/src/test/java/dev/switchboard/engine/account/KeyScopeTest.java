package dev.switchboard.engine.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyScopeTest {

    @Test
    void emptyListsAllowEverything() {
        assertThat(KeyScope.ALL.allowsModel("any-model")).isTrue();
        assertThat(KeyScope.ALL.allowsEndpoint(KeyScope.MESSAGES)).isTrue();
    }

    @Test
    void listedValuesRestrict() {
        KeyScope scope = new KeyScope(List.of("gpt-4o", "claude-sonnet-4"), List.of("messages"));

        assertThat(List.of("gpt-4o", "claude-sonnet-4", "gpt-4o-mini")).filteredOn(scope::allowsModel)
                .containsExactly("gpt-4o", "claude-sonnet-4");
        assertThat(List.of("messages", "chat_completions")).filteredOn(scope::allowsEndpoint).containsExactly("messages");
    }

    @Test
    void duplicatesCollapseInOrder() {
        assertThat(new KeyScope(List.of("b", "a", "b"), List.of()).models()).containsExactly("b", "a");
    }

    @Test
    void unknownEndpointsAreRefusedListingTheKnownOnes() {
        assertThatThrownBy(() -> new KeyScope(List.of(), List.of("/v1/chat/completions")))
                .isInstanceOfSatisfying(AccountException.class, e -> assertThat(e.field()).contains("endpoints"))
                .hasMessageContaining("chat_completions").hasMessageContaining("/v1/chat/completions");
    }

    @Test
    void blankOrSpacedModelIdsAreRefused() {
        for (String bad : List.of("", "gpt 4", "x".repeat(201), "a\tb")) {
            assertThatThrownBy(() -> new KeyScope(List.of(bad), List.of()))
                    .isInstanceOfSatisfying(AccountException.class, e -> assertThat(e.field()).contains("models"));
        }
    }
}
