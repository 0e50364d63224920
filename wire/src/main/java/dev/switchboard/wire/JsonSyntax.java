package dev.switchboard.wire;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.io.CharConversionException;
import java.io.IOException;
import java.util.Locale;

/**
 * Says what is wrong with a body that is not JSON, in words a person understands, with the line and column
 * when known. The parser's own messages name its classes and switches ({@code JsonReadFeature...},
 * {@code StreamReadConstraints.getMaxNestingDepth()}), which mean nothing to a caller: they are read here to
 * pick a sentence, and never quoted.
 */
final class JsonSyntax {
    private JsonSyntax() {
    }

    static String describe(IOException e) {
        String original = e instanceof JsonProcessingException j && j.getOriginalMessage() != null
                ? j.getOriginalMessage() : String.valueOf(e.getMessage());
        String m = original.toLowerCase(Locale.ROOT);
        String what;
        if (e instanceof StreamConstraintsException) {
            what = m.contains("nesting depth") ? "it is nested more than 1000 levels deep"
                    : m.contains("number") ? "a number has more than 1000 digits"
                    : m.contains("string") ? "a string is longer than the parser accepts (20 million characters)"
                    : m.contains("name") ? "a field name is longer than the parser accepts"
                    : "it is larger than the parser accepts";
        } else if (e instanceof JsonEOFException || m.contains("end-of-input")) {
            what = "it ends in the middle of a value (is it cut short?)";
        } else if (e instanceof CharConversionException || m.contains("utf-8") || m.contains("utf8")) {
            what = "it is not valid UTF-8 text";
        } else if (m.contains("'nan'") || m.contains("infinity")) {
            what = "NaN and Infinity are not JSON numbers";
        } else if (m.contains("comment")) {
            what = "JSON has no comments";
        } else if (m.contains("trailing token") || e instanceof MismatchedInputException && m.contains("trailing")) {
            what = "there is more after the JSON value";
        } else if (m.contains("character escape")) {
            what = "a string has an escape JSON does not have (only \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX)";
        } else if (m.contains("unquoted character") || m.contains("control character")) {
            what = "a string holds a raw control character (write it as an escape such as \\n)";
        } else if (m.contains("('''")) {
            what = "strings and field names take double quotes, not single ones";
        } else if (m.contains("was expecting double-quote to start field name")) {
            what = "a field name is not in double quotes";
        } else if (m.contains("unrecognized token")) {
            what = "a word that is not a JSON value (values are strings in double quotes, numbers, true, false, null,"
                    + " objects and arrays)";
        } else if (m.contains("leading zeroes") || m.contains("numeric value") || m.contains("number")) {
            what = "a number is not written as JSON writes numbers";
        } else if (m.contains("unexpected close marker") || m.contains("was expecting comma")
                || m.contains("was expecting a colon")) {
            what = "a bracket, brace, comma or colon is missing or out of place";
        } else if (m.contains("unexpected character")) {
            what = "an unexpected character";
        } else {
            what = "it is not well-formed";
        }
        return what + at(e);
    }

    private static String at(IOException e) {
        if (e instanceof JsonProcessingException j) {
            JsonLocation l = j.getLocation();
            if (l != null && l.getLineNr() > 0 && l.getColumnNr() > 0) {
                return " (line " + l.getLineNr() + ", column " + l.getColumnNr() + ")";
            }
        }
        return "";
    }
}
