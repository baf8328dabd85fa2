from setuptools import find_packages, setup

setup(
    name="weather-cli",
    version="1.3.0",
    packages=find_packages(),
    install_requires=["requests>=2.20"],
    entry_points={"console_scripts": ["weather=weather_cli.cli:main"]},
)
