package dev.switchboard.engine.extend;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The fields of a skill a caller may write: {@code {name, description, tags?, visibility?, body}}. On create
 * {@code name}, {@code description} and {@code body} are required; on update every field is optional and
 * only those present change.
 */
public record SkillDraft(Optional<String> name, Optional<String> description, Optional<List<String>> tags,
                         Optional<Visibility> visibility, Optional<SkillBody> body) {
    /** What a user's create or update may contain. */
    public static final Set<String> WRITABLE = Set.of("name", "description", "tags", "visibility", "body");
    /** What the gateway sets itself: naming one is a 400 that says so. */
    public static final Set<String> GATEWAY_OWNED = Set.of("id", "creator_username", "official", "likes", "use_count",
            "forks", "forked_from", "created_at", "updated_at");

    public SkillDraft {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(tags, "tags");
        Objects.requireNonNull(visibility, "visibility");
        Objects.requireNonNull(body, "body");
    }

    /** A user's create ({@code complete}) or update body, already checked against {@link #WRITABLE}. */
    public static SkillDraft read(JsonInput in, boolean complete) {
        Optional<String> name = complete || in.has("name") ? Optional.of(ItemJson.name(in)) : Optional.empty();
        Optional<String> description = complete || in.has("description")
                ? Optional.of(in.text("description", Limits.DESCRIPTION, true).orElseThrow(() ->
                        dev.switchboard.model.GatewayError.invalid(in.field("description"), in.field("description")
                                + ": required (it may be an empty string)").toException()))
                : Optional.empty();
        Optional<List<String>> tags = in.has("tags") ? Optional.of(ItemJson.tags(in)) : Optional.empty();
        Optional<Visibility> visibility = in.text("visibility", 16, true).map(v -> Visibility.parse(v, in.field("visibility")));
        Optional<SkillBody> body = complete || in.has("body")
                ? Optional.of(SkillBody.read(in.object("body").orElseThrow(() -> dev.switchboard.model.GatewayError
                        .invalid(in.field("body"), in.field("body") + ": required").toException())))
                : Optional.empty();
        return new SkillDraft(name, description, tags, visibility, body);
    }
}
