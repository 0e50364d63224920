package dev.switchboard.testkit.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The shape of the code base, checked on the compiled main classes of every module: the modules depend
 * downwards only (model, then wire, then engine, then store and server); a wire format never uses
 * another format's package (they meet only in the canonical model and in {@code wire.internal}); and the
 * engine never renders or reads client wire text, which is the edge's job.
 */
class ArchitectureTest {
    private static final String ROOT = "dev.switchboard";
    private static final List<String> FORMATS = List.of("openai", "anthropic", "gemini", "responses");
    /** What the client side of a format is called for: the edge's business, never the engine's. */
    private static final Set<String> CLIENT_METHODS = Set.of("fromClient", "fromClientCountTokens", "toClient", "errorBody",
            "streamWriter", "itemList", "deleted");

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT + ".model", ROOT + ".wire", ROOT + ".engine", ROOT + ".store", ROOT + ".server");

    @Test
    void everyModuleWasImported() {
        for (String module : List.of("model", "wire", "engine", "store", "server")) {
            org.assertj.core.api.Assertions.assertThat(MAIN.stream().anyMatch(c -> c.getPackageName().startsWith(ROOT + "." + module)))
                    .as("classes of %s on the class path", module).isTrue();
        }
    }

    @Test
    void modulesDependDownwardsOnly() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("model").definedBy(ROOT + ".model..")
                .layer("wire").definedBy(ROOT + ".wire..")
                .layer("engine").definedBy(ROOT + ".engine..")
                .layer("store").definedBy(ROOT + ".store..")
                .layer("server").definedBy(ROOT + ".server..")
                .whereLayer("server").mayNotBeAccessedByAnyLayer()
                .whereLayer("store").mayOnlyBeAccessedByLayers("server")
                .whereLayer("engine").mayOnlyBeAccessedByLayers("store", "server")
                .whereLayer("wire").mayOnlyBeAccessedByLayers("engine", "store", "server")
                .whereLayer("model").mayOnlyBeAccessedByLayers("wire", "engine", "store", "server")
                .check(MAIN);
    }

    @TestFactory
    Stream<DynamicTest> noWireFormatUsesAnother() {
        return FORMATS.stream().map(format -> DynamicTest.dynamicTest(format, () -> noClasses()
                .that().resideInAPackage(ROOT + ".wire." + format + "..")
                .should().dependOnClassesThat().resideInAnyPackage(FORMATS.stream().filter(f -> !f.equals(format))
                        .map(f -> ROOT + ".wire." + f + "..").toArray(String[]::new))
                .because("formats meet only in the canonical model; a rule they share lives in wire.internal")
                .check(MAIN)));
    }

    @Test
    void theEngineNeverRendersOrReadsClientWireText() {
        noClasses().that().resideInAPackage(ROOT + ".engine..")
                .should().dependOnClassesThat(describe("are client-side wire classes (readers and writers of client "
                        + "requests, answers and streams)", ArchitectureTest::clientSide))
                .orShould().callMethodWhere(describe("the client-side method of a wire format facade is called",
                        ArchitectureTest::clientMethod))
                .because("the edge reads and renders the caller's format; the engine speaks canonical objects")
                .check(MAIN);
    }

    private static boolean clientSide(JavaClass c) {
        return c.getPackageName().startsWith(ROOT + ".wire.")
                && (c.getSimpleName().contains("Client") || c.getSimpleName().endsWith("StreamWriter"));
    }

    private static boolean clientMethod(JavaMethodCall call) {
        return call.getTargetOwner().getPackageName().startsWith(ROOT + ".wire.") && CLIENT_METHODS.contains(call.getName());
    }
}
