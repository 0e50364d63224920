package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.account.User;
import dev.switchboard.engine.responses.StoredResponse;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.responses.ResponsesItem;
import dev.switchboard.wire.responses.ResponsesPart;
import dev.switchboard.wire.responses.Responses;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every {@link dev.switchboard.engine.responses.ResponseStore} contract, run against a real database:
 * round trips of items and response objects, owner-only visibility, conversations read oldest first,
 * and deletion that hides at once but erases only what no later response continues. A subclass
 * says on which database engine.
 */
abstract class ResponseStoreContract extends StoreContract {

    protected JdbcResponseStore store;

    @BeforeEach
    final void createStore() throws Exception {
        store = new JdbcResponseStore(database);
        JdbcAccountStore accounts = new JdbcAccountStore(database);
        for (String user : List.of("usr_alice", "usr_bob")) {
            accounts.createUser(new User(user, user, Optional.empty(), "default", 0, T0), Optional.empty());
        }
    }

    private static int counter;

    /** A response of {@code owner} continuing {@code previous}, with every item kind in its input. */
    private static StoredResponse response(String owner, Optional<String> previous) {
        String id = "resp_" + (++counter);
        List<ResponsesItem> input = List.of(
                new ResponsesItem.Message(Optional.of("msg_" + id), ResponsesItem.Role.USER, List.of(new ResponsesPart.InputText("question " + id),
                        new ResponsesPart.InputImage("https://example.com/cat.png", "low"),
                        new ResponsesPart.InputFile(Optional.empty(), Optional.of("JVBERi0x"), Optional.empty(), Optional.of("a.pdf"))),
                        "completed"),
                new ResponsesItem.FunctionCallOutput(Optional.of("fco_" + id), "call_" + id, new ResponsesItem.ToolOutput.Text("ünïcödé ✓"),
                        "completed"),
                new ResponsesItem.Reasoning(Optional.of("rs_" + id), List.of("thought"), List.of(), Optional.of("sb1.opaque")));
        ObjectNode body = Json.object();
        body.put("id", id);
        body.put("object", "response");
        body.put("status", "completed");
        body.put("created_at", 1_772_359_200L);
        body.putArray("output").add(Responses.writeItem(new ResponsesItem.Message(Optional.of("msg_out_" + id), ResponsesItem.Role.ASSISTANT,
                List.of(new ResponsesPart.OutputText("answer " + id)), "completed")));
        body.putObject("usage").put("input_tokens", 12).put("output_tokens", 3);
        return new StoredResponse(id, owner, previous, "claude-x", "completed", T0.plusSeconds(counter), input, body);
    }

    private static JsonNode reparsed(JsonNode n) {
        return Json.parse(Json.write(n));
    }

    private static void assertSame(StoredResponse actual, StoredResponse expected) {
        assertThat(actual.id()).isEqualTo(expected.id());
        assertThat(actual.ownerId()).isEqualTo(expected.ownerId());
        assertThat(actual.previousId()).isEqualTo(expected.previousId());
        assertThat(actual.model()).isEqualTo(expected.model());
        assertThat(actual.status()).isEqualTo(expected.status());
        assertThat(actual.createdAt()).isEqualTo(expected.createdAt());
        assertThat(actual.input()).isEqualTo(expected.input());
        assertThat(reparsed(actual.response())).isEqualTo(reparsed(expected.response()));
    }

    private int rows() throws SQLException {
        try (Connection c = database.dataSource().getConnection();
             PreparedStatement s = c.prepareStatement("SELECT COUNT(*) FROM responses");
             ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void aSavedResponseReadsBackExactlyForItsOwnerOnly() {
        StoredResponse r = response("usr_alice", Optional.empty());
        store.save(r);
        assertSame(store.find("usr_alice", r.id()).orElseThrow(), r);
        assertThat(store.find("usr_bob", r.id())).isEmpty();
        assertThat(store.find("usr_alice", "resp_unknown")).isEmpty();
        assertThat(store.chain("usr_bob", r.id())).isEmpty();
    }

    @Test
    void anotherInstanceSeesWhatWasSaved() {
        StoredResponse r = response("usr_alice", Optional.empty());
        store.save(r);
        JdbcResponseStore other = new JdbcResponseStore(open());
        assertSame(other.find("usr_alice", r.id()).orElseThrow(), r);
    }

    @Test
    void aDuplicateIdIsRefused() {
        StoredResponse r = response("usr_alice", Optional.empty());
        store.save(r);
        assertThatThrownBy(() -> store.save(r)).isInstanceOf(StoreException.class);
    }

    @Test
    void aConversationReadsOldestFirstFromAnyOfItsTurns() {
        StoredResponse a = response("usr_alice", Optional.empty());
        StoredResponse b = response("usr_alice", Optional.of(a.id()));
        StoredResponse c = response("usr_alice", Optional.of(b.id()));
        List.of(a, b, c).forEach(store::save);

        List<StoredResponse> chain = store.chain("usr_alice", c.id());
        assertThat(chain).extracting(StoredResponse::id).containsExactly(a.id(), b.id(), c.id());
        assertSame(chain.get(1), b);
        assertThat(store.chain("usr_alice", b.id())).extracting(StoredResponse::id).containsExactly(a.id(), b.id());
        assertThat(store.chain("usr_alice", a.id())).extracting(StoredResponse::id).containsExactly(a.id());
    }

    @Test
    void aLongConversationReadsInOrder() {
        List<String> ids = new ArrayList<>();
        Optional<String> previous = Optional.empty();
        for (int i = 0; i < 150; i++) {
            StoredResponse r = response("usr_alice", previous);
            store.save(r);
            ids.add(r.id());
            previous = Optional.of(r.id());
        }
        assertThat(store.chain("usr_alice", ids.getLast())).extracting(StoredResponse::id).containsExactlyElementsOf(ids);
    }

    @Test
    void deletionHidesAtOnceAndOnlyForTheOwner() {
        StoredResponse r = response("usr_alice", Optional.empty());
        store.save(r);
        assertThat(store.delete("usr_bob", r.id(), T0)).isFalse();
        assertThat(store.find("usr_alice", r.id())).isPresent();

        assertThat(store.delete("usr_alice", r.id(), T0)).isTrue();
        assertThat(store.find("usr_alice", r.id())).isEmpty();
        assertThat(store.chain("usr_alice", r.id())).isEmpty();
        assertThat(store.delete("usr_alice", r.id(), T0)).as("deleting twice").isFalse();
        assertThat(store.delete("usr_alice", "resp_unknown", T0)).isFalse();
    }

    @Test
    void aDeletedTurnStaysInTheConversationsThatContinueIt() throws SQLException {
        StoredResponse a = response("usr_alice", Optional.empty());
        StoredResponse b = response("usr_alice", Optional.of(a.id()));
        StoredResponse c = response("usr_alice", Optional.of(b.id()));
        List.of(a, b, c).forEach(store::save);

        assertThat(store.delete("usr_alice", b.id(), T0)).isTrue();
        assertThat(store.find("usr_alice", b.id())).isEmpty();
        assertThat(store.chain("usr_alice", b.id())).isEmpty();
        assertThat(store.chain("usr_alice", c.id())).extracting(StoredResponse::id).containsExactly(a.id(), b.id(), c.id());
        assertThat(rows()).isEqualTo(3);

        // A new turn may still be saved onto the hidden one's conversation.
        StoredResponse d = response("usr_alice", Optional.of(c.id()));
        store.save(d);
        assertThat(store.chain("usr_alice", d.id())).hasSize(4);
    }

    @Test
    void deletingTheLastTurnThatNeedsThemErasesHiddenTurns() throws SQLException {
        StoredResponse a = response("usr_alice", Optional.empty());
        StoredResponse b = response("usr_alice", Optional.of(a.id()));
        StoredResponse c1 = response("usr_alice", Optional.of(b.id()));
        StoredResponse c2 = response("usr_alice", Optional.of(b.id()));
        List.of(a, b, c1, c2).forEach(store::save);

        store.delete("usr_alice", b.id(), T0);
        store.delete("usr_alice", c1.id(), T0);
        assertThat(rows()).as("b is still continued by c2").isEqualTo(3);
        assertThat(store.chain("usr_alice", c2.id())).extracting(StoredResponse::id).containsExactly(a.id(), b.id(), c2.id());

        store.delete("usr_alice", c2.id(), T0);
        assertThat(rows()).as("c2 and the hidden b are erased; a is still visible").isEqualTo(1);
        assertThat(store.find("usr_alice", a.id())).isPresent();

        store.delete("usr_alice", a.id(), T0);
        assertThat(rows()).isZero();
    }

    @Test
    void conversationsOfDifferentOwnersDoNotMeet() {
        StoredResponse mine = response("usr_alice", Optional.empty());
        StoredResponse theirs = response("usr_bob", Optional.empty());
        store.save(mine);
        store.save(theirs);
        assertThat(store.chain("usr_alice", theirs.id())).isEmpty();
        assertThat(store.chain("usr_bob", theirs.id())).extracting(StoredResponse::id).containsExactly(theirs.id());
    }
}
