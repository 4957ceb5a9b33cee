package io.orderentry.http.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.core.JsonFactory;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The stream's place message read without a tree takes exactly {@code {"op":"place","id":...,"order":{...}}} and
 * hands over the order's own bytes; anything else is left to the tree, which answers the error.
 */
class PlaceMessageTest {

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final String ORDER = "{\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"fills\":[{\"a\":{}}],\"x\":\"}\"}";

    private static PlaceMessage read(final String text) {
        return PlaceMessage.read(FACTORY, text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldFindTheIdAndTheOrdersBytesInAnyOrderOfTheThreeMembers() {
        for (final String text : new String[] {
            "{\"op\":\"place\",\"id\":\"r-1\",\"order\":" + ORDER + "}",
            " { \"order\" : " + ORDER + " , \"id\":\"r-1\", \"op\":\"place\" } ",
            "{\"id\":\"r-1\",\"order\":" + ORDER + ",\"op\":\"place\"}"}) {
            final PlaceMessage message = read(text);
            assertEquals("\"r-1\"", message.id(), text);
            assertEquals(ORDER, new String(message.order(), StandardCharsets.UTF_8), text);
        }
        assertEquals("17", read("{\"op\":\"place\",\"id\":17,\"order\":{}}").id());
        assertEquals("-5", read("{\"op\":\"place\",\"id\":-5,\"order\":{}}").id());
    }

    @Test
    void shouldLeaveEveryOtherMessageToTheTree() {
        for (final String text : new String[] {
            "{\"op\":\"cancel\",\"id\":\"r\",\"order\":{}}",                  // another op
            "{\"op\":\"place\",\"order\":{}}",                                // no id
            "{\"op\":\"place\",\"id\":\"bad id\",\"order\":{}}",              // an id the contract refuses
            "{\"op\":\"place\",\"id\":\"" + "x".repeat(65) + "\",\"order\":{}}",
            "{\"op\":\"place\",\"id\":1.5,\"order\":{}}",
            "{\"op\":\"place\",\"id\":123456789012345678901234567890,\"order\":{}}",
            "{\"op\":\"place\",\"id\":\"r\"}",                                // no order
            "{\"op\":\"place\",\"id\":\"r\",\"order\":[]}",                   // not an object
            "{\"op\":\"place\",\"id\":\"r\",\"order\":{},\"extra\":1}",       // an unknown member
            "{\"op\":\"place\",\"id\":\"r\",\"id\":\"s\",\"order\":{}}",      // a duplicate
            "{\"op\":\"place\",\"id\":\"r\",\"order\":{}}x",                  // bytes after it
            "{\"op\":\"place\",\"id\":\"r\",\"order\":{}} {}",
            "{\"op\":\"place\",\"id\":\"r\",\"order\":{",                     // cut
            "[]", "", "null"}) {
            assertNull(read(text), text);
        }
    }

    @Test
    void shouldTakeOnlyTheIdsTheContractAllows() {
        assertEquals(true, PlaceMessage.validId("A-z_0.9:x"));
        assertEquals(false, PlaceMessage.validId(""));
        assertEquals(false, PlaceMessage.validId("é"));
        assertEquals(true, PlaceMessage.validId("x".repeat(64)));
        assertEquals(false, PlaceMessage.validId("x".repeat(65)));
    }
}
