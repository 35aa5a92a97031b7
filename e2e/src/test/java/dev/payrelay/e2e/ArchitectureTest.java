package dev.payrelay.e2e;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.payrelay.cli.PayrelayCommand;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The module table of DESIGN.md, kept true: one dependency direction, enforced. */
class ArchitectureTest {

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // Test fixtures shipped as test-jars (e.g. payrelay-sql's TestDatabase) are test code.
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("dev.payrelay");
  }

  @Test
  void domain_dependsOnNothingOfOurs() {
    noClasses()
        .that()
        .resideInAPackage("dev.payrelay.domain..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.payrelay.ledger..",
            "dev.payrelay.channels..",
            "dev.payrelay.workflows..",
            "dev.payrelay.activities..",
            "dev.payrelay.api..",
            "dev.payrelay.app..",
            "dev.payrelay.cli..",
            "dev.payrelay.devstack..",
            "dev.payrelay.tools..")
        .check(classes);
  }

  @Test
  void sqlAndChannels_dependOnlyOnDomain() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.payrelay.ledger..", "dev.payrelay.channels..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.payrelay.workflows..",
            "dev.payrelay.activities..",
            "dev.payrelay.api..",
            "dev.payrelay.app..",
            "dev.payrelay.cli..",
            "dev.payrelay.devstack..",
            "dev.payrelay.tools..")
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage("dev.payrelay.ledger..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.payrelay.channels..")
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage("dev.payrelay.channels..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.payrelay.ledger..")
        .check(classes);
  }

  @Test
  void workflows_neverImportSqlActivitiesChannelsOrApi() {
    noClasses()
        .that()
        .resideInAPackage("dev.payrelay.workflows..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.payrelay.temporal..",
            "dev.payrelay.amqp..",
            "dev.payrelay.simulators..",
            "dev.payrelay.ledger..",
            "dev.payrelay.activities..",
            "dev.payrelay.channels..",
            "dev.payrelay.api..",
            "dev.payrelay.app..",
            "dev.payrelay.cli..",
            "dev.payrelay.devstack..",
            "dev.payrelay.tools..")
        .check(classes);
  }

  @Test
  void amqp_dependsOnlyOnTheLedgerAndDomain() {
    noClasses()
        .that()
        .resideInAPackage("dev.payrelay.amqp..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.payrelay.workflows..",
            "dev.payrelay.temporal..",
            "dev.payrelay.activities..",
            "dev.payrelay.channels..",
            "dev.payrelay.api..",
            "dev.payrelay.app..",
            "dev.payrelay.cli..")
        .check(classes);
  }

  @Test
  void temporalClient_neverImportsActivitiesApiOrApp() {
    noClasses()
        .that()
        .resideInAPackage("dev.payrelay.temporal..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.payrelay.activities..",
            "dev.payrelay.api..",
            "dev.payrelay.app..",
            "dev.payrelay.cli..")
        .check(classes);
  }

  @Test
  void api_neverImportsActivitiesOrWorker() {
    noClasses()
        .that()
        .resideInAPackage("dev.payrelay.api..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.payrelay.activities..",
            "dev.payrelay.app..",
            "dev.payrelay.cli..",
            "dev.payrelay.devstack..",
            "dev.payrelay.tools..")
        .check(classes);
  }

  @Test
  void apiServices_neverImportTheHttpServer() {
    // The routes call the services; a service that reached back into Javalin's layer would tie
    // ledger and Temporal work to one transport.
    noClasses()
        .that()
        .resideInAnyPackage(
            "dev.payrelay.api.auth..",
            "dev.payrelay.api.payment..",
            "dev.payrelay.api.webhook..",
            "dev.payrelay.api.admin..",
            "dev.payrelay.api.health..",
            "dev.payrelay.api.codec..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.payrelay.api.http..")
        .check(classes);
  }

  @Test
  void activities_neverImportApiOrWorker() {
    noClasses()
        .that()
        .resideInAPackage("dev.payrelay.activities..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.payrelay.api..",
            "dev.payrelay.app..",
            "dev.payrelay.cli..",
            "dev.payrelay.devstack..",
            "dev.payrelay.tools..")
        .check(classes);
  }

  @Test
  void composition_appBelowCliBelowDevstackBelowTools() {
    noClasses()
        .that()
        .resideInAPackage("dev.payrelay.app..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.payrelay.cli..", "dev.payrelay.devstack..", "dev.payrelay.tools..")
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage("dev.payrelay.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.payrelay.devstack..", "dev.payrelay.tools..")
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage("dev.payrelay.devstack..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.payrelay.tools..")
        .check(classes);
  }

  @Test
  void simulators_areReachedOnlyByTheDevStackAndTools() {
    noClasses()
        .that()
        .resideOutsideOfPackages(
            "dev.payrelay.simulators..", "dev.payrelay.devstack..", "dev.payrelay.tools..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.payrelay.simulators..")
        .check(classes);
  }

  @Test
  void appPackages_areFreeOfCycles() {
    slices().matching("dev.payrelay.app.(*)..").should().beFreeOfCycles().check(classes);
  }

  @Test
  void onlyTheCommandReadsTheEnvironment() {
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName(PayrelayCommand.class.getName())
        .should()
        .callMethod(System.class, "getenv")
        .orShould()
        .callMethod(System.class, "getenv", String.class)
        .check(classes);
  }

  @Test
  void workflowCode_readsNoWallClockAndNoRandomness() {
    noClasses()
        .that()
        .resideInAPackage("dev.payrelay.workflows..")
        .should()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(java.time.Instant.class, "now")
        .orShould()
        .callMethod(java.util.UUID.class, "randomUUID")
        .orShould()
        .callMethod(Thread.class, "sleep", long.class)
        // Randomness only through Workflow.newRandom(), whose Random is seeded by the history.
        .orShould()
        .callConstructor(java.util.Random.class)
        .orShould()
        .callMethod(Math.class, "random")
        .orShould()
        .dependOnClassesThat()
        .belongToAnyOf(
            java.util.concurrent.ThreadLocalRandom.class, java.security.SecureRandom.class)
        .check(classes);
  }
}
