package dev.switchboard.testkit.it;

import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.TestGateway;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link GatewayExtension} with what nearly every end-to-end test sets up next: the fake upstream told
 * which provider keys to accept (it refuses every other), and a vendor SDK client for the gateway, made once
 * the gateway runs. Register it as {@code @RegisterExtension static final SdkGateway<OpenAIClient> GATEWAY =
 * ItSupport.openAiGateway();} (or the messages or content-parts support's) and use {@link #gateway()} and
 * {@link #client()} in the tests.
 *
 * @param <C> the SDK client's type
 */
public final class SdkGateway<C> implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback {
    private final GatewayExtension gateway;
    private final Function<TestGateway, C> connect;
    private final List<String> upstreamKeys;
    private C client;

    /**
     * @param yaml         the gateway's config
     * @param connect      makes the SDK client for the running gateway
     * @param upstreamKeys the only keys the fake upstream accepts
     */
    public SdkGateway(String yaml, Function<TestGateway, C> connect, String... upstreamKeys) {
        this.gateway = new GatewayExtension(yaml);
        this.connect = Objects.requireNonNull(connect, "connect");
        this.upstreamKeys = List.of(upstreamKeys);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        gateway.beforeAll(context);
        TestGateway running = gateway.gateway();
        if (!upstreamKeys.isEmpty()) {
            running.upstream().requireKey(upstreamKeys.toArray(String[]::new));
        }
        client = connect.apply(running);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        gateway.beforeEach(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        client = null;
        gateway.afterAll(context);
    }

    /** The running gateway (between beforeAll and afterAll). */
    public TestGateway gateway() {
        return gateway.gateway();
    }

    /** The SDK client for the running gateway, with the test user's key. */
    public C client() {
        if (client == null) {
            throw new IllegalStateException("the client exists only while the test class runs");
        }
        return client;
    }
}
