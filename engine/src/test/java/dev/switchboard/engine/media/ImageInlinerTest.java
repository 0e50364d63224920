package dev.switchboard.engine.media;

import static dev.switchboard.engine.media.LocalHttpServer.respond;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.catalog.Timeouts;
import dev.switchboard.engine.provider.Attempt;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ImageInlinerTest {
    @org.junit.jupiter.api.BeforeAll
    static void warmUp() {
        LocalHttpServer.warmUpHttpClient();
    }

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private final LocalHttpServer server = new LocalHttpServer((head, out) ->
            respond(out, "200 OK\r\nContent-Type: image/jpeg", new byte[] {1, 2, 3}));
    private final ImageInliner inliner = new ImageInliner(new ImageFetcher(
            new FetchLimits(3, 1024, Duration.ofSeconds(2)),
            host -> List.of(host.equals("images.test") ? LOOPBACK : InetAddress.getByName(host)),
            AddressGuard.allowingForTests(Set.of(LOOPBACK))));

    @AfterEach
    void close() throws Exception {
        server.close();
    }

    private static Attempt attempt(ProviderType type, ChatRequest request) {
        ModelEntry model = new ModelEntry("vision", List.of(), Optional.empty(), "test", 10_000, 100,
                new Capabilities(false, true, true, false, false), ReasoningProfile.NONE, Pricing.FREE, List.of(),
                List.of(new RouteTarget("p", "up")));
        ProviderConfig provider = new ProviderConfig("p", type, URI.create("http://127.0.0.1:1"), List.of(), Timeouts.DEFAULT,
                Map.of());
        return new Attempt(request, model, provider, new RouteTarget("p", "up"), "");
    }

    private static ContentBlock image(String url) {
        return ContentBlock.Image.of(new MediaSource.Url(url));
    }

    private ChatRequest withImages(String url) {
        Message user = new Message(Role.USER, List.of(ContentBlock.Text.of("what is this?"), image(url)));
        Message toolResult = new Message(Role.USER, List.of(new ContentBlock.ToolResult("c1", Optional.empty(),
                List.of(image(url)), false, Optional.empty())));
        return ChatRequest.builder("vision").messages(List.of(user, toolResult)).build();
    }

    @Test
    void providersThatTakeUrlsGetTheRequestUntouched() {
        ChatRequest request = withImages("http://127.0.0.1/private.png");
        for (ProviderType type : List.of(ProviderType.OPENAI, ProviderType.ANTHROPIC, ProviderType.SIMULATOR)) {
            Attempt a = attempt(type, request);
            assertThat(inliner.forRequest().apply(a)).isSameAs(a);
        }
        assertThat(server.accepted()).isZero();
    }

    @Test
    void aProviderThatNeedsBytesGetsThemInMessagesAndToolResultsFetchedOncePerRequest() {
        ChatRequest request = withImages("http://images.test:" + server.port() + "/cat.jpg");
        UnaryOperator<Attempt> prepare = inliner.forRequest();

        Attempt first = prepare.apply(attempt(ProviderType.GEMINI, request));
        Attempt again = prepare.apply(attempt(ProviderType.GEMINI, request)); // a failover to another target

        MediaSource.Base64 expected = new MediaSource.Base64("image/jpeg", "AQID");
        for (Attempt a : List.of(first, again)) {
            List<Message> m = a.request().messages();
            assertThat(((ContentBlock.Image) m.get(0).content().get(1)).source()).isEqualTo(expected);
            ContentBlock.ToolResult r = (ContentBlock.ToolResult) m.get(1).content().getFirst();
            assertThat(((ContentBlock.Image) r.content().getFirst()).source()).isEqualTo(expected);
            assertThat(m.get(0).content().getFirst()).isEqualTo(ContentBlock.Text.of("what is this?"));
        }
        assertThat(server.heads()).hasSize(1);
    }

    @Test
    void inlineBytesAndGoogleFilesAreLeftAsTheyAre() {
        ChatRequest request = ChatRequest.builder("vision").messages(List.of(new Message(Role.USER, List.of(
                ContentBlock.Image.of(new MediaSource.Base64("image/png", "AAAA")), image("gs://bucket/cat.png"))))).build();
        Attempt a = attempt(ProviderType.GEMINI, request);
        assertThat(inliner.forRequest().apply(a)).isSameAs(a);
    }

    @Test
    void anInternalUrlIsA400NamingMessagesAndIsNeverConnectedTo() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, LOOPBACK)) {
            ImageInliner production = new ImageInliner(new ImageFetcher(FetchLimits.DEFAULT));
            ChatRequest request = withImages("http://127.0.0.1:" + listener.getLocalPort() + "/secret.png?token=abc");

            assertThatThrownBy(() -> production.forRequest().apply(attempt(ProviderType.GEMINI, request)))
                    .isInstanceOfSatisfying(GatewayException.class, e -> {
                        assertThat(e.error().status()).isEqualTo(400);
                        assertThat(e.error().param()).contains("messages");
                        assertThat(e.error().message()).contains("Image 1").contains("http://127.0.0.1")
                                .contains("public").doesNotContain("token=abc");
                    });
            listener.setSoTimeout(200);
            assertThatThrownBy(listener::accept).isInstanceOf(SocketTimeoutException.class);
        }
    }
}
