package dev.switchboard.testkit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit extension that starts a {@link TestGateway} (gateway + fake upstream, free loopback ports) once per
 * test class and stops it after; the fake upstream's record is cleared before each test. Register it as
 * {@code @RegisterExtension static final GatewayExtension GATEWAY = new GatewayExtension(yaml);}.
 */
public final class GatewayExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback {
    private final String yaml;
    private TestGateway gateway;

    public GatewayExtension(String yaml) {
        this.yaml = yaml;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        gateway = TestGateway.start(yaml);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        gateway.upstream().reset();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (gateway != null) {
            gateway.close();
            gateway = null;
        }
    }

    /** The running gateway (between beforeAll and afterAll). */
    public TestGateway gateway() {
        if (gateway == null) {
            throw new IllegalStateException("the gateway runs only while the test class runs");
        }
        return gateway;
    }
}
