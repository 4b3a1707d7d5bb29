// Lints and renders Helm charts with real Helm (helm-java: Helm's Go library loaded through JNA), all in one JVM.
// Run as a Java 17 single-file program with the jars of pom.xml on the class path:
//   java -cp '<lib>/*' HelmCheck.java <out-dir> (lint <name> <chart-dir> | template <name> <chart-dir> <values.yaml>)...
// lint writes <out-dir>/<name>.lint.txt: PASSED or FAILED on the first line, then Helm's messages.
// template writes <out-dir>/<name>.yaml (the rendered manifests, hooks excepted: helm-java returns the release
// manifest only) or <name>.error.txt (why Helm refused, e.g. a value that values.schema.json rejects).
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

public class HelmCheck {
  /** Kubernetes version of the render: one the API schemas of the validator (kubernetes-models) cover. */
  private static final String KUBE_VERSION = "1.30.0";

  public static void main(String[] args) throws Exception {
    if (args.length < 1) usage();
    Path out = Paths.get(args[0]);
    Files.createDirectories(out);
    int i = 1;
    while (i < args.length) {
      if (args[i].equals("lint") && i + 2 < args.length) {
        lint(out, args[i + 1], Paths.get(args[i + 2]));
        i += 3;
      } else if (args[i].equals("template") && i + 3 < args.length) {
        template(out, args[i + 1], Paths.get(args[i + 2]), Paths.get(args[i + 3]));
        i += 4;
      } else {
        usage();
      }
    }
  }

  private static void lint(Path out, String name, Path chart) throws Exception {
    LintResult lint = new Helm(chart).lint().strict().call();
    String verdict = lint.isFailed() ? "FAILED" : "PASSED";
    Files.writeString(out.resolve(name + ".lint.txt"), verdict + "\n" + String.join("\n", lint.getMessages()) + "\n");
  }

  private static void template(Path out, String name, Path chart, Path values) throws Exception {
    try {
      String yaml = new Helm(chart).template()
          .withName("pp")
          .withNamespace("payments")
          .withKubeVersion(KUBE_VERSION)
          .withValuesFile(values)
          .call();
      Files.writeString(out.resolve(name + ".yaml"), yaml);
    } catch (IllegalStateException refused) {
      Files.writeString(out.resolve(name + ".error.txt"), refused.getMessage() + "\n");
    }
  }

  private static void usage() {
    System.err.println("usage: HelmCheck <out-dir> (lint <name> <chart-dir> | template <name> <chart-dir> <values.yaml>)...");
    System.exit(2);
  }
}
