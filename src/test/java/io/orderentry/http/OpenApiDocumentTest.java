package io.orderentry.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract clients generate code from, checked here for the mistake a YAML parser lets through and an OpenAPI
 * validator does not: an unquoted comma inside a flow mapping ({@code {type: integer, description: a, b}}) makes the
 * text after it a key of its own, with no value. CI also runs a full OpenAPI 3 validator over it (tools/openapi).
 */
class OpenApiDocumentTest {

    private static JsonNode document() throws IOException {
        try (InputStream in = OpenApiDocumentTest.class.getResourceAsStream("/openapi.yaml")) {
            assertNotNull(in, "openapi.yaml is on the classpath");
            return new ObjectMapper(new YAMLFactory()).readTree(in);
        }
    }

    /** Collects the paths of keys without a value under {@code node}. */
    private static void keysWithoutValue(final JsonNode node, final String path, final List<String> found) {
        if (node.isObject()) {
            for (final Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                final Map.Entry<String, JsonNode> field = fields.next();
                if (field.getValue().isNull()) {
                    found.add(path + "/" + field.getKey());
                }
                keysWithoutValue(field.getValue(), path + "/" + field.getKey(), found);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                keysWithoutValue(node.get(i), path + "[" + i + "]", found);
            }
        }
    }

    @Test
    void noDescriptionIsSplitIntoAnExtraKeyByAnUnquotedComma() throws IOException {
        final List<String> found = new ArrayList<>();
        keysWithoutValue(document(), "", found);
        assertEquals(List.of(), found, "keys without a value: quote the description they were cut from");
    }

    @Test
    void theDocumentIsOpenApi3AndEverySchemaPropertyIsASchema() throws IOException {
        final JsonNode document = document();
        assertTrue(document.get("openapi").asText().startsWith("3."), document.get("openapi").asText());
        final List<String> notSchemas = new ArrayList<>();
        document.get("components").get("schemas").fields().forEachRemaining(schema -> {
            final JsonNode properties = schema.getValue().get("properties");
            if (properties != null) {
                properties.fields().forEachRemaining(property -> {
                    if (!property.getValue().isObject()) {
                        notSchemas.add(schema.getKey() + "." + property.getKey());
                    }
                });
            }
        });
        assertEquals(List.of(), notSchemas, "properties whose value is not a schema object");
    }
}
