package dev.switchboard.engine.extend;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A character card with the fields of CharacterCard Card V2 (the format SillyTavern and most chat front ends
 * import), plus the catalog's counts. {@code extensions} is the card's free-form object, kept as given.
 */
public record CharacterCard(ItemHeader head, String personality, String scenario, String firstMes, String mesExample,
                            String systemPrompt, String postHistoryInstructions, List<String> alternateGreetings,
                            String creatorNotes, String creator, String characterVersion, Optional<String> avatarUrl,
                            ObjectNode extensions, long likes, long interactions) implements CatalogItem {
    public CharacterCard {
        Objects.requireNonNull(personality, "personality");
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(firstMes, "firstMes");
        Objects.requireNonNull(mesExample, "mesExample");
        Objects.requireNonNull(systemPrompt, "systemPrompt");
        Objects.requireNonNull(postHistoryInstructions, "postHistoryInstructions");
        alternateGreetings = List.copyOf(alternateGreetings);
        Objects.requireNonNull(creatorNotes, "creatorNotes");
        Objects.requireNonNull(creator, "creator");
        Objects.requireNonNull(characterVersion, "characterVersion");
        Objects.requireNonNull(avatarUrl, "avatarUrl");
        extensions = extensions.deepCopy();
    }

    @Override
    public ItemKind kind() {
        return ItemKind.CHARACTER;
    }
}
