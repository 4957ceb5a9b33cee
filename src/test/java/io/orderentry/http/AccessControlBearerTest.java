package io.orderentry.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link AccessControl#bearer}: the secret of an {@code Authorization} header (RFC 6750, section 2.1). */
class AccessControlBearerTest {

    private static final String SECRET = "k0123456789abcdef.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA_";

    @ParameterizedTest
    @ValueSource(strings = {"Bearer ", "bearer ", "BEARER ", "bEaReR "})
    void shouldTakeTheSchemeInAnyCase(final String scheme) {
        assertEquals(SECRET, AccessControl.bearer(scheme + SECRET));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Bearer  ", "Bearer   "})
    void shouldTakeSeveralSpacesAfterTheSchemeAsRfc6750Allows(final String scheme) {
        assertEquals(SECRET, AccessControl.bearer(scheme + SECRET), "credentials = \"Bearer\" 1*SP b64token");
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {
        "Bearer",                     // no secret
        "Bearer ",                    // empty secret
        "Bearer    ",                 // only spaces
        "Bearer" + SECRET,            // no space after the scheme
        "Bearer\t" + SECRET,          // a tab is not the separator
        "Basic " + SECRET,            // another scheme
        "Bearers " + SECRET,          // another scheme that starts like it
        "Token " + SECRET,
        SECRET,                       // the secret without a scheme
        "Bearer " + SECRET + " x",    // a second word
        "Bearer " + SECRET + " " + SECRET,
        "Bearer a b",
    })
    void shouldRefuseAnyOtherShape(final String header) {
        assertNull(AccessControl.bearer(header), "[" + header + "]");
    }
}
