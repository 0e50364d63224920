package dev.switchboard.engine.pipeline;

/** The client closed its connection while a stream was being written to it. */
public final class ClientGoneException extends Exception {
    public ClientGoneException(Throwable cause) {
        super("client disconnected", cause, false, false);
    }
}
