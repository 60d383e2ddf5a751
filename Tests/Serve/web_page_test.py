"""The server's web page in headless Chromium (Debian's chromium + chromium-driver) driven by
Selenium: upload burger.jpg in the gallery, wait for the result, the first bar must be
cheeseburger; a screenshot is saved. (Tests/Serve/web_app_test.py tests the whole app.)

usage: web_page_test.py URL IMAGE SCREENSHOT
"""

import os
import sys
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

url, screenshot = sys.argv[1], sys.argv[3]
image = str(Path(sys.argv[2]).resolve())  # chromedriver wants a canonical path
options = webdriver.ChromeOptions()
options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1000,800"):
    options.add_argument(flag)
driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
try:
    driver.get(url + "/")
    wait = WebDriverWait(driver, 120)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#model option"))
    driver.find_element(By.ID, "tab-gallery").click()
    driver.find_element(By.ID, "files").send_keys(image)
    wait.until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, ".card .bar")))
    first = driver.find_element(By.CSS_SELECTOR, ".card .bar .name").text
    driver.save_screenshot(screenshot)
    assert first == "cheeseburger", f"first bar is {first!r}"
    errors = driver.find_elements(By.CSS_SELECTOR, ".card .error")
    assert not errors, [e.text for e in errors]
    print(f"web page: first bar {first}; screenshot {screenshot}")
finally:
    driver.quit()
