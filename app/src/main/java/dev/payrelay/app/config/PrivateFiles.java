package dev.payrelay.app.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Owner-only files and folders for what {@code payrelay dev} keeps: its data folder ({@code
 * PAYRELAY_DATA_DIR}, default {@code .payrelay}) 0700, the Temporal dev server's SQLite store and
 * log and dev's API key 0600. They hold every workflow's history and a key for every tenant. On a
 * file system without POSIX permissions these are no-ops.
 */
public final class PrivateFiles {

  /** {@code rwx------}. */
  static final Set<PosixFilePermission> FOLDER = PosixFilePermissions.fromString("rwx------");

  /** {@code rw-------}. */
  static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private PrivateFiles() {}

  /**
   * Creates {@code folder} (and missing parents, owner-only) unless it exists, and makes it
   * owner-only either way: a folder an older run left world-readable is closed too.
   *
   * @throws UncheckedIOException when it cannot be created or its mode set
   */
  public static Path folder(Path folder) {
    try {
      if (!POSIX) {
        return Files.createDirectories(folder);
      }
      Files.createDirectories(folder, PosixFilePermissions.asFileAttribute(FOLDER));
      return Files.setPosixFilePermissions(folder, FOLDER);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make " + folder + " owner-only", e);
    }
  }

  /**
   * Creates an empty owner-only {@code file} unless it exists; an existing one is made owner-only.
   *
   * @throws UncheckedIOException when it cannot be created or its mode set
   */
  public static Path file(Path file) {
    try {
      if (Files.exists(file)) {
        restrict(file);
        return file;
      }
      return POSIX ? Files.createFile(file, fileMode()) : Files.createFile(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make " + file + " owner-only", e);
    }
  }

  /**
   * Makes each of {@code files} that exists owner-only; missing ones are skipped.
   *
   * @throws UncheckedIOException when a mode cannot be set
   */
  public static void restrict(Path... files) {
    for (Path f : files) {
      try {
        if (POSIX && Files.exists(f)) {
          Files.setPosixFilePermissions(f, FILE);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot make " + f + " owner-only", e);
      }
    }
  }

  /** The attribute that creates a file {@code rw-------}. */
  static FileAttribute<Set<PosixFilePermission>> fileMode() {
    return PosixFilePermissions.asFileAttribute(FILE);
  }
}
