package dev.rayscale.testsupport;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates for TLS tests, written as PEM files as a platform team's CA (cert-manager, say) would issue them: a CA, a
 * GCS certificate for {@code 127.0.0.1} and {@code localhost} signed by it, a client certificate signed by it, and a second
 * CA that signed neither. Keys are PKCS#8.
 */
public record TestCertificates(Path ca, Path serverCertificate, Path serverKey, Path clientCertificate, Path clientKey, Path otherCa) {

    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

    public static TestCertificates generate(Path folder) {
        try {
            Files.createDirectories(folder);
            KeyPair caKeys = keys();
            X509Certificate ca = certificate("CN=Test Ray CA", caKeys, "CN=Test Ray CA", caKeys.getPrivate(), true, null);
            KeyPair serverKeys = keys();
            X509Certificate server = certificate("CN=gcs", serverKeys, "CN=Test Ray CA", caKeys.getPrivate(), false,
                    new GeneralNames(new GeneralName[] {new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                            new GeneralName(GeneralName.dNSName, "localhost")}));
            KeyPair clientKeys = keys();
            X509Certificate client = certificate("CN=rayscale", clientKeys, "CN=Test Ray CA", caKeys.getPrivate(), false, null);
            KeyPair otherKeys = keys();
            X509Certificate other = certificate("CN=Another CA", otherKeys, "CN=Another CA", otherKeys.getPrivate(), true, null);
            TestCertificates files = new TestCertificates(folder.resolve("ca.crt"), folder.resolve("gcs.crt"), folder.resolve("gcs.key"),
                    folder.resolve("client.crt"), folder.resolve("client.key"), folder.resolve("other-ca.crt"));
            Files.writeString(files.ca(), pem(ca));
            Files.writeString(files.serverCertificate(), pem(server));
            Files.writeString(files.serverKey(), pem(new JcaPKCS8Generator(serverKeys.getPrivate(), null)));
            Files.writeString(files.clientCertificate(), pem(client));
            Files.writeString(files.clientKey(), pem(new JcaPKCS8Generator(clientKeys.getPrivate(), null)));
            Files.writeString(files.otherCa(), pem(other));
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot make test certificates", e);
        }
    }

    private static KeyPair keys() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    private static X509Certificate certificate(String subject, KeyPair keys, String issuer, PrivateKey signer, boolean authority,
            GeneralNames names) throws IOException, GeneralSecurityException, OperatorCreationException {
        Instant now = Instant.now();
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(new X500Name(issuer), BigInteger.valueOf(SERIAL.incrementAndGet()),
                Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(Duration.ofDays(1))), new X500Name(subject), keys.getPublic());
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(authority));
        if (authority) {
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        }
        if (names != null) {
            builder.addExtension(Extension.subjectAlternativeName, false, names);
        }
        return new JcaX509CertificateConverter().getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(signer)));
    }

    private static String pem(Object object) throws IOException {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object instanceof JcaPKCS8Generator generator ? generator.generate() : object);
        }
        return text.toString();
    }
}
