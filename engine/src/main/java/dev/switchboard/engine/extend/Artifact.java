package dev.switchboard.engine.extend;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The downloadable file of a plugin, as described (its bytes are stored apart, by {@code sha256}).
 *
 * @param fileName    the name it is served under, {@code /v1/plugins/download/<fileName>}: letters, digits,
 *                    {@code . _ -}, starting with a letter or digit, at most 128 characters, so it can never
 *                    name a path
 * @param contentType the media type it is served with
 * @param sha256      lower-case hex SHA-256 of the bytes
 */
public record Artifact(String fileName, String contentType, long size, String sha256) {
    public static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    public static final Pattern CONTENT_TYPE = Pattern.compile(
            "[a-z0-9][a-z0-9!#$&^_.+-]{0,63}/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(; ?charset=[A-Za-z0-9_-]{1,40})?");

    public Artifact {
        Objects.requireNonNull(fileName, "fileName");
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(sha256, "sha256");
        if (!validFileName(fileName)) {
            throw new IllegalArgumentException("not a plugin file name: " + fileName);
        }
    }

    /** Whether {@code s} may be a plugin file name (no path, no {@code ..}). */
    public static boolean validFileName(String s) {
        return FILE_NAME.matcher(s).matches() && !s.contains("..");
    }

    /** Where it is downloaded, relative to the gateway's address. */
    public String downloadPath() {
        return "/v1/plugins/download/" + fileName;
    }
}
