package dev.switchboard.testkit.it.conformance;

/** The client formats the gateway serves, one driver each: the rows of the matrix. */
enum Client {
    CHAT("Chat Completions", "POST /v1/chat/completions", new ChatCompletionsDriver()),
    MESSAGES("Messages", "POST /v1/messages", new MessagesDriver()),
    GENERATE_CONTENT("Generate Content", "POST /v1beta/models/{model}:generateContent, :streamGenerateContent",
            new GenerateContentDriver()),
    RESPONSES("Responses", "POST /v1/responses", new ResponsesDriver());

    final String title;
    final String endpoint;
    final ClientDriver driver;

    Client(String title, String endpoint, ClientDriver driver) {
        this.title = title;
        this.endpoint = endpoint;
        this.driver = driver;
    }
}
