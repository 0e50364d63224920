package dev.switchboard.server.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import org.slf4j.event.KeyValuePair;

/**
 * Writes each log event as one flat JSON object per line: {@code ts}, {@code level}, {@code logger},
 * {@code msg}, then the event's key/value pairs as top-level fields (numbers stay numbers), then
 * {@code error} with the stack trace when there is one. Flat lines are what log pipelines index without
 * configuration; logback's own JSON encoder nests key/value pairs in an array of one-field objects.
 */
public final class JsonLineEncoder extends EncoderBase<ILoggingEvent> {
    private static final JsonFactory JSON = JsonFactory.builder().recyclerPool(JsonRecyclerPools.sharedBoundedPool()).build();
    private static final byte[] NONE = new byte[0];

    @Override
    public byte[] headerBytes() {
        return NONE;
    }

    @Override
    public byte[] footerBytes() {
        return NONE;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("ts", Instant.ofEpochMilli(event.getTimeStamp()).toString());
            g.writeStringField("level", event.getLevel().toString());
            g.writeStringField("logger", event.getLoggerName());
            g.writeStringField("msg", event.getFormattedMessage());
            if (event.getKeyValuePairs() != null) {
                for (KeyValuePair kv : event.getKeyValuePairs()) {
                    g.writeFieldName(kv.key);
                    switch (kv.value) {
                        case null -> g.writeNull();
                        case Integer i -> g.writeNumber(i);
                        case Long l -> g.writeNumber(l);
                        case Boolean b -> g.writeBoolean(b);
                        default -> g.writeString(kv.value.toString());
                    }
                }
            }
            IThrowableProxy t = event.getThrowableProxy();
            if (t != null) {
                g.writeStringField("error", ThrowableProxyUtil.asString(t));
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.write('\n');
        return out.toByteArray();
    }
}
