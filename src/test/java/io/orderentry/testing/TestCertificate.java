package io.orderentry.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for {@code 127.0.0.1} and {@code localhost}, made at test time by the {@code openssl}
 * binary (no key material is committed), and a client {@link SSLContext} that trusts it and nothing else.
 *
 * @param cert PEM certificate, for {@code ORDERS_TLS_CERT}
 * @param key  PEM private key (PKCS#8), for {@code ORDERS_TLS_KEY}
 */
public record TestCertificate(Path cert, Path key) {

    /** @return a fresh certificate and key in {@code dir}, or null when there is no {@code openssl} on the PATH */
    public static TestCertificate create(final Path dir) throws IOException, InterruptedException {
        if (!opensslOnPath()) {
            return null;
        }
        final Path cert = dir.resolve("tls-cert.pem");
        final Path key = dir.resolve("tls-key.pem");
        final Process openssl = new ProcessBuilder(List.of("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                "-keyout", key.toString(), "-out", cert.toString(), "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"))
                .redirectErrorStream(true).start();
        final String output = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!openssl.waitFor(60, TimeUnit.SECONDS) || openssl.exitValue() != 0) {
            throw new IllegalStateException("openssl could not make a certificate:\n" + output);
        }
        return new TestCertificate(cert, key);
    }

    /** @return a TLS context that trusts this certificate only */
    public SSLContext trustingContext() throws IOException, GeneralSecurityException {
        final KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        try (InputStream in = Files.newInputStream(cert)) {
            trusted.setCertificateEntry("service", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        final TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    private static boolean opensslOnPath() {
        final String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (final String directory : path.split(java.io.File.pathSeparator)) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, "openssl"))) {
                return true;
            }
        }
        return false;
    }
}
