package dev.switchboard.engine.extend;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import java.util.Objects;
import java.util.Set;

/**
 * One input-rewrite rule of a skill, run over the caller's text in order. Regular expressions are RE2
 * syntax (RE2/J): matching takes time linear in the text whatever the pattern, so no skill can stall the
 * gateway. Patterns and replacement references ({@code $1}, {@code ${name}}) are checked when the skill is
 * written, never when it is used.
 */
public sealed interface RewriteRule {
    /** The most characters one rule may add to a text; a rule that would add more refuses the request. */
    int MAX_GROWTH = 1 << 20;

    RuleTarget target();

    /** The text after this rule. */
    String apply(String text);

    /** The rule as written (the {@code body.rules[i]} object). */
    ObjectNode toJson();

    /** {@code find} replaced by {@code replace} everywhere; {@code find} is a literal unless {@code regex}. */
    record Replace(String find, String replace, boolean regex, RuleTarget target, Pattern pattern) implements RewriteRule {
        public Replace {
            Objects.requireNonNull(find, "find");
            Objects.requireNonNull(replace, "replace");
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(pattern, "pattern");
        }

        @Override
        public String apply(String text) {
            Matcher m = pattern.matcher(text);
            String replacement = regex ? replace : Matcher.quoteReplacement(replace);
            StringBuilder out = new StringBuilder(text.length());
            while (m.find()) {
                m.appendReplacement(out, replacement);
                if (out.length() > text.length() + MAX_GROWTH) {
                    throw GatewayError.invalid("skill", "A rewrite rule of the skill would add more than " + MAX_GROWTH
                            + " characters to the message (find: " + find + ").").toException();
                }
            }
            m.appendTail(out);
            return out.toString();
        }

        @Override
        public ObjectNode toJson() {
            ObjectNode o = Json.object();
            o.put("type", "replace");
            o.put("find", find);
            o.put("replace", replace);
            o.put("regex", regex);
            o.put("target", target.wire());
            return o;
        }
    }

    /** Where an {@link Add} puts its text. */
    enum Place {
        BEFORE, AFTER;

        /** The rule's {@code type}: {@code prepend} or {@code append}. */
        public String type() {
            return this == BEFORE ? "prepend" : "append";
        }
    }

    /** {@code text} put before ({@code prepend}) or after ({@code append}) the target text. */
    record Add(Place place, String text, RuleTarget target) implements RewriteRule {
        public Add {
            Objects.requireNonNull(place, "place");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(target, "target");
        }

        @Override
        public String apply(String in) {
            return place == Place.BEFORE ? text + in : in + text;
        }

        @Override
        public ObjectNode toJson() {
            ObjectNode o = Json.object();
            o.put("type", place.type());
            o.put("text", text);
            o.put("target", target.wire());
            return o;
        }
    }

    /** Reads and checks one rule object ({@code in.path()} names it in errors). */
    static RewriteRule read(JsonInput in) {
        String type = in.requiredText("type", 16);
        RuleTarget target = in.text("target", 16, true).map(t -> RuleTarget.parse(t, in.field("target")))
                .orElse(RuleTarget.LAST_USER);
        return switch (type) {
            case "replace" -> {
                in.allowOnly(Set.of("type", "find", "replace", "regex", "target"), Set.of());
                String find = in.text("find", Limits.RULE_TEXT, false).orElse("");
                if (find.isEmpty()) {
                    throw GatewayError.invalid(in.field("find"), in.field("find") + ": expected a non-empty string").toException();
                }
                String replace = in.text("replace", Limits.RULE_TEXT, false).orElse("");
                boolean regex = in.bool("regex").orElse(false);
                Pattern pattern;
                if (regex) {
                    try {
                        pattern = Pattern.compile(find);
                    } catch (PatternSyntaxException e) {
                        throw GatewayError.invalid(in.field("find"), in.field("find") + ": not a valid RE2 regular expression ("
                                + e.getDescription() + ")").toException();
                    }
                    checkReplacement(replace, pattern, in.field("replace"));
                } else {
                    pattern = Pattern.compile(Pattern.quote(find));
                }
                yield new Replace(find, replace, regex, target, pattern);
            }
            case "prepend", "append" -> {
                in.allowOnly(Set.of("type", "text", "target"), Set.of());
                String text = in.text("text", Limits.RULE_TEXT, false).orElse("");
                if (text.isEmpty()) {
                    throw GatewayError.invalid(in.field("text"), in.field("text") + ": expected a non-empty string").toException();
                }
                yield new Add(type.equals("prepend") ? Place.BEFORE : Place.AFTER, text, target);
            }
            default -> throw GatewayError.invalid(in.field("type"), in.field("type")
                    + ": expected replace, prepend or append, got '" + type + "'").toException();
        };
    }

    /**
     * Checks that every {@code $n} and {@code ${name}} of a regex replacement names a group of the pattern and
     * that every {@code \} escapes something, so a rule can never fail when it runs.
     */
    private static void checkReplacement(String replace, Pattern pattern, String field) {
        for (int i = 0; i < replace.length(); i++) {
            char c = replace.charAt(i);
            if (c == '\\') {
                if (++i >= replace.length()) {
                    throw GatewayError.invalid(field, field + ": a trailing \\ escapes nothing (write \\\\ for a backslash)")
                            .toException();
                }
            } else if (c == '$') {
                if (i + 1 >= replace.length()) {
                    throw GatewayError.invalid(field, field + ": a $ must be followed by a group number or {name}"
                            + " (write \\$ for a dollar sign)").toException();
                }
                char next = replace.charAt(i + 1);
                if (next == '{') {
                    int close = replace.indexOf('}', i + 2);
                    String name = close < 0 ? "" : replace.substring(i + 2, close);
                    if (close < 0 || !pattern.namedGroups().containsKey(name)) {
                        throw GatewayError.invalid(field, field + ": ${" + name + "} names no group of the pattern").toException();
                    }
                    i = close;
                } else if (next >= '0' && next <= '9') {
                    if (next - '0' > pattern.groupCount()) {
                        throw GatewayError.invalid(field, field + ": $" + next + " refers to a group the pattern does not have (it has "
                                + pattern.groupCount() + ")").toException();
                    }
                    i++;
                } else {
                    throw GatewayError.invalid(field, field + ": a $ must be followed by a group number or {name}"
                            + " (write \\$ for a dollar sign)").toException();
                }
            }
        }
    }
}
