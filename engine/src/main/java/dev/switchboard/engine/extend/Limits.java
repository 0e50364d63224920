package dev.switchboard.engine.extend;

/**
 * The size limits of catalog entries. Each is enforced where the value is written, as a 400 naming the field;
 * docs/extend.md lists them.
 */
public final class Limits {
    public static final int NAME = 100;
    public static final int DESCRIPTION = 2_000;
    public static final int ID = 64;
    public static final int TAGS = 10;
    public static final int TAG = 32;
    public static final int SYSTEM_PROMPT = 32_768;
    public static final int RULES = 20;
    public static final int RULE_TEXT = 2_000;
    public static final int URL = 2_000;
    public static final int MCP_TOOLS = 100;
    public static final int MCP_TOOL_NAME = 100;
    public static final int MARKETPLACE_ITEMS = 200;
    public static final int CHARACTER_FIELD = 32_768;
    public static final int ALTERNATE_GREETINGS = 20;
    public static final int SHORT_TEXT = 100;
    public static final int SEARCH = 200;
    public static final int SEARCH_WORDS = 8;
    public static final int FILTER_TAGS = 20;
    /** How many skills one account may own. */
    public static final int SKILLS_PER_USER = 200;
    /** The most skills that apply to one chat request: named by it, or installed for its model. */
    public static final int SKILLS_PER_REQUEST = 8;
    /** Models an installed skill may be limited to. */
    public static final int INSTALL_MODELS = 50;
    /** The largest plugin artifact. */
    public static final int ARTIFACT_BYTES = 10 * 1024 * 1024;
    /** The largest body of a catalog write by a user (a skill with every field at its limit fits). */
    public static final int WRITE_BODY_BYTES = 256 * 1024;

    private Limits() {
    }
}
