package dev.switchboard.wire.internal;

import dev.switchboard.model.Signature;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * Another provider's signature, carried through a client format whose own signature field is meant for
 * one vendor: the messages format's {@code thinking.signature} and {@code redacted_thinking.data}, the
 * content-parts format's {@code thoughtSignature}. Clients echo those fields unchanged, so a trace signed by
 * an upstream of another kind (a Responses upstream's encrypted reasoning under a messages or content-parts
 * client) comes back with the next turn and returns to the kind of upstream that issued it.
 *
 * <p>Encoding: standard base64 with padding of {@code sb1:<origin>:<value>} (UTF-8), so the field still
 * holds what its clients expect (the Google SDKs read {@code thoughtSignature} as base64 bytes and write it
 * back in the same alphabet). Opaque to callers, not secret: a forged value only makes its issuer refuse
 * the request. A value that does not decode to this shape is the format's own vendor's signature.
 */
public final class ForeignSignatures {
    private static final String MAGIC = "sb1:";

    private ForeignSignatures() {
    }

    public static String encode(Signature signature) {
        byte[] bytes = (MAGIC + signature.origin() + ":" + signature.value()).getBytes(StandardCharsets.UTF_8);
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** The signature {@code value} carries, when it is one of ours; never fails. */
    public static Optional<Signature> decode(String value) {
        if (value.length() < 8 || !value.startsWith("c2Ix")) { // "sb1" in base64: skips vendors' values cheaply
            return Optional.empty();
        }
        String text;
        try {
            text = new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        int colon = text.indexOf(':', MAGIC.length());
        if (!text.startsWith(MAGIC) || colon <= MAGIC.length()) {
            return Optional.empty();
        }
        return Optional.of(new Signature(text.substring(MAGIC.length(), colon), text.substring(colon + 1)));
    }

    /**
     * The origin suffix of a signature that belongs to the block after its carrier rather than to a trace: a
     * format whose only signature field is on thinking (the messages format) carries a Gemini signature of a
     * tool call or text part in an empty thinking block just before it; reading it back, the signature goes
     * to that next block again.
     */
    private static final String FOR_NEXT = "+next";

    /** {@code signature} marked as belonging to the block after its carrier. */
    public static Signature forNextBlock(Signature signature) {
        return new Signature(signature.origin() + FOR_NEXT, signature.value());
    }

    /** The signature a carrier holds for the next block, when {@code signature} is such a carrier's. */
    public static Optional<Signature> ofNextBlock(Signature signature) {
        return signature.origin().endsWith(FOR_NEXT)
                ? Optional.of(new Signature(signature.origin().substring(0, signature.origin().length() - FOR_NEXT.length()),
                        signature.value()))
                : Optional.empty();
    }

    /** A signature as a client of a format whose own vendor is {@code format} gets it: its own as it is. */
    public static String forClient(Signature signature, String format) {
        return signature.isFrom(format) ? signature.value() : encode(signature);
    }

    /** A signature a client of {@code format} sent back: ours decoded, anything else its vendor's own. */
    public static Signature fromClient(String value, String format) {
        return decode(value).orElseGet(() -> new Signature(format, value));
    }
}
