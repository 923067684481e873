"""Builds the native libraries with the Makefile and ships them in the package."""
import os
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution


class BuildWithMake(build_py):
    def run(self):
        root = os.path.dirname(os.path.abspath(__file__))
        subprocess.check_call(["make", "-C", root, "all"])
        super().run()


class BinaryDistribution(Distribution):
    """The wheel holds shared libraries, so it is platform-specific."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithMake}, distclass=BinaryDistribution)
