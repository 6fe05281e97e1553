package dev.rayscale.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A certificate authority and certificates it signs, made with the JDK's keytool for a test: the broker's (for
 * 127.0.0.1 and localhost) and a client's for mutual TLS, each in a PKCS12 keystore, and the CA as a PEM file.
 */
record TestCertificates(Path caPem, Path brokerKeystore, Path clientKeystore, String storePassword) {

    static TestCertificates create(Path folder) throws IOException, InterruptedException {
        String password = "store-" + Long.toHexString(System.nanoTime());
        Path ca = folder.resolve("ca.p12");
        keytool("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=rayscale-test-ca", "-ext", "bc:c",
                "-validity", "2", "-keystore", ca.toString(), "-storetype", "PKCS12", "-storepass", password);
        Path caPem = folder.resolve("ca.crt");
        keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca.toString(), "-storepass", password, "-file", caPem.toString());
        Path broker = signed(folder, "broker", "CN=localhost", "SAN=dns:localhost,ip:127.0.0.1", ca, caPem, password);
        Path client = signed(folder, "client", "CN=rayscale-client", null, ca, caPem, password);
        return new TestCertificates(caPem, broker, client, password);
    }

    /** A key pair in its own keystore, its certificate signed by the CA and imported with the CA's as its chain. */
    private static Path signed(Path folder, String name, String dname, String san, Path ca, Path caPem, String password)
            throws IOException, InterruptedException {
        Path keystore = folder.resolve(name + ".p12");
        Path request = folder.resolve(name + ".csr");
        Path certificate = folder.resolve(name + ".crt");
        keytool("-genkeypair", "-alias", name, "-keyalg", "RSA", "-keysize", "2048", "-dname", dname, "-validity", "2",
                "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", password);
        keytool("-certreq", "-alias", name, "-keystore", keystore.toString(), "-storepass", password, "-file", request.toString());
        List<String> sign = new ArrayList<>(List.of("-gencert", "-alias", "ca", "-keystore", ca.toString(), "-storepass", password,
                "-infile", request.toString(), "-outfile", certificate.toString(), "-rfc", "-validity", "2"));
        if (san != null) {
            sign.addAll(List.of("-ext", san));
        }
        keytool(sign.toArray(String[]::new));
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", caPem.toString(), "-keystore", keystore.toString(), "-storepass", password);
        keytool("-importcert", "-alias", name, "-file", certificate.toString(), "-keystore", keystore.toString(), "-storepass", password);
        return keystore;
    }

    private static void keytool(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("keytool " + arguments[0] + " failed: " + output);
        }
    }
}
