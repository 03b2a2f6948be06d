CREATE DATABASE translator;
