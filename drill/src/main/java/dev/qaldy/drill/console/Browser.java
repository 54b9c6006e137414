package dev.qaldy.drill.console;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Debian Chromium driven by Debian's chromedriver (never a downloaded browser), with a
 * fresh profile; {@link #close()} ends both processes.
 */
public final class Browser implements AutoCloseable {

    public final ChromeDriver driver;
    private final ChromeDriverService service;

    public Browser(Path profileParent) throws IOException {
        Path profile = Files.createTempDirectory(Files.createDirectories(profileParent), "chromium-");
        service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File("/usr/bin/chromedriver"))
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-quic", "--no-first-run", "--window-size=1280,900", "--user-data-dir=" + profile);
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    }

    /** Saves a PNG of what the page shows now, for a person to look at after the run. */
    public Path screenshot(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        return file;
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
        }
    }
}
