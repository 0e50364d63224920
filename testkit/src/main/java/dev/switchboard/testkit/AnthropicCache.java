package dev.switchboard.testkit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fake's prompt cache, for the usage Anthropic reports when a request carries {@code cache_control}.
 * A breakpoint caches the prompt up to and including its block. The longest prefix already cached (same
 * model, byte-identical blocks) is a cache read; every later breakpoint writes the part between the
 * previous breakpoint and itself, counted under its own TTL (5m or 1h). Tokens are characters / 4, as for
 * the whole prompt. Unlike Anthropic there is no minimum cacheable length and nothing expires while the
 * fake runs, so tests can use short prompts and are not timing-dependent. Thread-safe.
 */
final class AnthropicCache {

    /** How the prompt's tokens split: {@code uncached + read + write5m + write1h} is the whole prompt. */
    record Split(int uncached, int read, int write5m, int write1h) {
    }

    private final Set<String> cached = ConcurrentHashMap.newKeySet();

    Split account(String model, List<AnthropicRequest.CacheUnit> units, int promptTokens) {
        int breakpointCount = (int) units.stream().filter(u -> u.breakpointTtl().isPresent()).count();
        String[] keys = new String[breakpointCount];
        int[] tokens = new int[breakpointCount];
        String[] ttls = new String[breakpointCount];
        MessageDigest prefix = sha256();
        prefix.update(model.getBytes(StandardCharsets.UTF_8));
        int chars = 0;
        int b = 0;
        for (AnthropicRequest.CacheUnit unit : units) {
            byte[] text = unit.text().getBytes(StandardCharsets.UTF_8);
            prefix.update(Integer.toString(text.length).getBytes(StandardCharsets.UTF_8)); // unambiguous boundaries
            prefix.update((byte) ':');
            prefix.update(text);
            chars += unit.text().length();
            if (unit.breakpointTtl().isPresent()) {
                keys[b] = HexFormat.of().formatHex(clone(prefix).digest());
                tokens[b] = Math.min(chars / 4, promptTokens);
                ttls[b] = unit.breakpointTtl().get();
                b++;
            }
        }
        int hit = -1;
        for (int i = breakpointCount - 1; i >= 0; i--) {
            if (cached.contains(keys[i])) {
                hit = i;
                break;
            }
        }
        int read = hit >= 0 ? tokens[hit] : 0;
        int write5m = 0;
        int write1h = 0;
        int covered = read;
        for (int i = hit + 1; i < breakpointCount; i++) {
            int part = Math.max(0, tokens[i] - covered);
            if (ttls[i].equals("1h")) {
                write1h += part;
            } else {
                write5m += part;
            }
            covered = Math.max(covered, tokens[i]);
        }
        for (String key : keys) {
            cached.add(key);
        }
        return new Split(promptTokens - read - write5m - write1h, read, write5m, write1h);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static MessageDigest clone(MessageDigest digest) {
        try {
            return (MessageDigest) digest.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's SHA-256 digest is cloneable", e);
        }
    }
}
